# The score-optimal search: a fail-soft null-window alpha-beta over the
# declarer's net game points, which carries along what the score depends on
# beside the cards (the thirds since the root, the birds' and the Valat's
# states) and looks the score of each finished hand up in a table the caller
# builds.  It shares the table (_table.pxd), the move ordering and the
# alpha-beta step with the point search.

from libc.stdint cimport uint64_t

from kosolve.engine._bits cimport Hand
from kosolve.engine._table cimport Table


cdef enum:
    LEAVES = 4 * 256 * 4    # finished hands: thresholds reached (0-3) x the birds' states x the Valat bits
    SCORE_KEY_WORDS = 3     # an entry: the forehand's cards, the dealer's cards, the context; then a slot


cdef struct ScoreState:
    Hand hand[2]            # the cards each seat still holds
    int leader              # the seat that leads the current trick
    int led                 # the card led to the current trick, NO_CARD at a trick boundary
    int declarer            # the seat whose net score is searched
    int thirds              # the declarer's thirds taken since the root
    int birds               # the birds' states, two bits each (see _score.pyx)
    int valat               # bit 0: the declarer took every trick so far; bit 1: the defender
    int steps[3]            # thirds since the root that reach the win, Absolut and Panzer
    const int* leaf         # the net score of each finished hand, by leaf index
    uint64_t nodes          # cards played in the search
    Table* tt               # the table: entries of the current query only


cdef int score_search(ScoreState* s, int beta) noexcept nogil
