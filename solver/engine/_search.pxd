# The search: a fail-soft null-window alpha-beta over the declarer's future
# thirds, driven by bisection over thirds or, from a good guess, MTD(f).  It
# reads and writes the transposition table only through tt_key, tt_probe,
# tt_move and tt_store.

from libc.stdint cimport int8_t, uint64_t

from kosolve.engine._bits cimport Hand
from kosolve.engine._table cimport Table


cdef enum:
    GOAL_NONE = 0       # the declarer's thirds, no condition
    GOAL_VALAT = 1      # the owner wins every trick still to play
    GOAL_BIRD = 2       # the owner's bird wins the trick the goal names, itself
    FAILED = -4096      # the value of a line that breaks the goal


cdef struct SearchState:
    Hand hand[2]                # the cards each seat still holds (0 forehand, 1 dealer)
    int leader                  # the seat that leads the current trick
    int led                     # the card led to the current trick; NO_CARD at a trick boundary
    int declarer                # the seat whose thirds the search counts
    uint64_t nodes              # positions visited: one per card played in the search
    Table* tt                   # the table of trick-boundary positions
    int goal                    # GOAL_NONE, or the goal the declarer (here its owner) must reach
    int goal_card               # GOAL_BIRD: the bird
    int goal_cards              # GOAL_BIRD: cards in each hand when the bird's trick starts (17 - trick number)
    bint goal_points            # whether thirds count beside the goal (a bird or Valat with the game)
    Table* goal_tt              # the table of goal searches: valid for one goal query only


cdef int search(SearchState* s, int beta) noexcept nogil
cdef int exact_value(SearchState* s) noexcept nogil
cdef int mtdf_value(SearchState* s, int guess, int lower, int upper) noexcept nogil
cdef int thirds_in_play(SearchState* s) noexcept nogil

cdef void value_cards(SearchState* root, int n, int8_t* moves, SearchState* children, int* gains,
                      int* values) noexcept nogil
