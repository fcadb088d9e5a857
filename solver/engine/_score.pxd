# The score-optimal search: a fail-soft null-window alpha-beta over the
# declarer's net game points, which carries along what the score depends on
# beside the cards (the thirds since the root, the birds' and the Valat's
# states) and looks the score of each finished hand up in a table the caller
# builds.  It shares the table (_table.pxd), the move ordering and the
# alpha-beta step with the point search, and it asks the point search
# (_search.pxd's search, on a pattern-keyed table of its own) which of the
# thresholds the declarer's thirds reach: that frames the net score within
# what the birds and the Valat can still change (the frame, _score.pyx).

from libc.stdint cimport int16_t, uint32_t, uint64_t

from kosolve.engine._bits cimport Hand
from kosolve.engine._table cimport Table


cdef enum:
    LEAVES = 4 * 256 * 4    # finished hands: thresholds reached (0-3) x the birds' states x the Valat bits
    SCORE_KEY_WORDS = 3     # an entry: the point search's key word and tag, the birds in play, the context; a slot
    FRAMES = 16 * 256 * 4   # frames: the birds still open (4 bits) x the birds' states x the Valat bits


cdef struct Frame:
    int16_t low[4]          # by thresholds reached: the least net score the open birds and Valat can still give
    int16_t high[4]         # ... and the most
    int16_t won_low[4][4]   # by bird and thresholds reached: the least with that bird won in its trick
    int16_t won_high[4][4]  # ... and the most
    int16_t other_low[4][4] # the least with that bird not won in its trick
    int16_t other_high[4][4]  # ... and the most
    int open_birds          # the birds still open: bit i for the bird I + i
    int relevant            # the thresholds whose reaching can still change the score: bit k for threshold k


cdef struct ScoreState:
    Hand hand[2]            # the cards each seat still holds
    int leader              # the seat that leads the current trick
    int led                 # the card led to the current trick, NO_CARD at a trick boundary
    int declarer            # the seat whose net score is searched
    int thirds              # the declarer's thirds taken since the root
    int birds               # the birds' states, two bits each (see _score.pyx)
    int valat               # bit 0: the declarer took every trick so far; bit 1: the defender
    int steps[3]            # thirds since the root that reach the win, Absolut and Panzer (ascending)
    const int* leaf         # the net score of each finished hand, by leaf index
    uint64_t nodes          # cards played in the score search
    uint64_t point_nodes    # cards played in the point searches the frame asks
    Table* tt               # the table: entries of the current query only
    Table* points_tt        # the point searches' table: bounds on future thirds, valid for every query
    Table* bird_tt          # the bird goal searches' tables, one a bird (I to IV), valid for every query
    bint framed             # whether the frame is used (off only to test the search without it)
    bint monotone           # whether no score falls as more thresholds are reached (every leaf)
    Frame* frames           # the frames by frame index, worked out when first needed in a query
    uint32_t* frame_query   # the query that worked each frame out
    uint32_t query          # the current query


cdef int score_search(ScoreState* s, int beta) noexcept nogil
