# The search: a fail-soft null-window alpha-beta over the declarer's future
# thirds, driven by bisection over thirds or, from a good guess, MTD(f).  It
# reads and writes the transposition table only through tt_key, tt_probe,
# tt_move and tt_store.

from libc.stdint cimport uint64_t

from kosolve._bits cimport Hand
from kosolve._tt cimport TranspositionTable


cdef struct SearchState:
    Hand hand[2]                # the cards each seat still holds (0 forehand, 1 dealer)
    int leader                  # the seat that leads the current trick
    int led                     # the card led to the current trick; NO_CARD at a trick boundary
    int declarer                # the seat whose thirds the search counts
    uint64_t nodes              # positions visited: one per card played in the search
    TranspositionTable* tt      # the table of trick-boundary positions


cdef int search(SearchState* s, int beta) noexcept nogil
cdef int exact_value(SearchState* s) noexcept nogil
cdef int mtdf_value(SearchState* s, int guess, int lower, int upper) noexcept nogil
cdef int thirds_in_play(SearchState* s) noexcept nogil
