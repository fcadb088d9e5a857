# The alpha-beta step that every search loop shares, and the null-window
# test the drivers make of a child.

cdef enum:
    INFINITE = 1 << 14  # beyond any value: the start of a side's best
    NO_GAIN = 0         # the child's value does not improve on the best so far
    IMPROVED = 1        # it does
    CUTOFF = 2          # it does, and the null window is decided: stop


cdef inline int fold_value(bint maximizing, int value, int* best, int beta) noexcept nogil:
    """Fold a child's fail-soft ``value`` into ``best`` for the side to move
    and tell whether it improved it, and whether the test ``>= beta`` is
    decided by it."""
    if maximizing:
        if value <= best[0]:
            return NO_GAIN
        best[0] = value
        return CUTOFF if value >= beta else IMPROVED
    if value >= best[0]:
        return NO_GAIN
    best[0] = value
    return CUTOFF if value < beta else IMPROVED


cdef inline bint keeps_target(bint maximizing, int value, int target) noexcept nogil:
    """Whether a child whose null-window result is ``value`` (searched at
    :func:`keeping_beta`) is worth ``target``: for the side maximizing no
    child is worth more than its parent, for the other no child less, so one
    null-window test tells."""
    return value >= target if maximizing else value <= target


cdef inline int keeping_beta(bint maximizing, int target) noexcept nogil:
    """The null window that tells whether a child is worth ``target``."""
    return target if maximizing else target + 1
