# The alpha-beta step that every search loop shares.

cdef enum:
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
