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


# The leaf table: the declarer's net score of every way a hand can finish,
# which the caller builds from the scoring rules (kosolve.analysis.netscore)
# and the search only looks up.  Its layout is written here alone: the enum
# is cpdef, so _score's Python module has the same names, and leaf_index is
# a Python function too.
#
#   leaf index = (steps * BIRD_STATES + birds) * VALAT_STATES + valat
#     steps   thresholds reached: 0 to STEPS
#     birds   BIRD_BITS a bird, I lowest: each BIRD_OPEN, BIRD_WON or BIRD_BEATEN
#     valat   bits: VALAT_DECLARER, VALAT_DEFENDER
cpdef enum:
    STEPS = 3               # the thresholds the declarer's thirds may reach: the win, Absolut, Panzer
    BIRD_BITS = 2           # the bits of a bird's state: the bird I + i's are at BIRD_BITS * i
    BIRD_STATES = 1 << (4 * BIRD_BITS)  # the four birds' states together
    VALAT_STATES = 4        # the two Valat bits together
    LEAVES = (STEPS + 1) * BIRD_STATES * VALAT_STATES
    BIRD_OPEN = 0           # a bird's state: not decided (still to come, or played outside its trick)
    BIRD_WON = 1            # it won its trick
    BIRD_BEATEN = 2         # it was beaten in its trick
    VALAT_DECLARER = 1      # the Valat bits: the declarer took every trick so far
    VALAT_DEFENDER = 2      # the defender did


cdef enum:
    SCORE_KEY_WORDS = 3     # an entry: the point search's key word and tag, the birds in play, the context; a slot
    FRAMES = 16 * BIRD_STATES * VALAT_STATES  # the birds still open (4 bits) x the birds' states x the Valat bits


cdef struct Frame:
    int16_t low[STEPS + 1]              # by thresholds reached: the least net score the open birds and Valat give
    int16_t high[STEPS + 1]             # ... and the most
    int16_t won_low[4][STEPS + 1]       # by bird and thresholds reached: the least with that bird won in its trick
    int16_t won_high[4][STEPS + 1]      # ... and the most
    int16_t other_low[4][STEPS + 1]     # the least with that bird not won in its trick
    int16_t other_high[4][STEPS + 1]    # ... and the most
    int open_birds                      # the birds still open: bit i for the bird I + i
    int relevant                        # the thresholds whose reaching can still change the score (bit k: k)


cdef struct ScoreState:
    Hand hand[2]            # the cards each seat still holds
    int leader              # the seat that leads the current trick
    int led                 # the card led to the current trick, NO_CARD at a trick boundary
    int declarer            # the seat whose net score is searched
    int thirds              # the declarer's thirds taken since the root
    int birds               # the birds' states so far (the leaf index's birds)
    int valat               # the Valat bits so far (the leaf index's valat)
    int steps[STEPS]        # thirds since the root that reach the win, Absolut and Panzer (ascending)
    const int* leaf         # the net score of each finished hand, by leaf index
    uint64_t nodes          # cards played in the score search
    uint64_t point_nodes    # cards played in the point searches the frame asks
    Table* tt               # the table: entries of the queries that score finished hands alike
    Table* points_tt        # the point searches' table: bounds on future thirds, valid for every query
    Table* bird_tt          # the bird goal searches' tables, one a bird (I to IV), valid for every query
    bint framed             # whether the frame is used (off only to test the search without it)
    bint monotone           # whether no score falls as more thresholds are reached (every leaf)
    Frame* frames           # the frames by frame index, worked out when first needed in a query
    uint32_t* frame_query   # the query that worked each frame out
    uint32_t query          # the current query


cdef struct ScoreKey:
    uint64_t words[SCORE_KEY_WORDS]     # the entry's key words (see _score.pyx's notes)
    uint64_t hash                       # the words and the leader mixed: its low bits choose the bucket


cdef class ScoreSolver:
    cdef Table tt                       # the score entries: valid while the queries score alike
    cdef Table points_tt                # the frame's point searches: valid across queries (unused with points)
    cdef readonly object points         # the Solver whose main table the frame searches on, or None
    cdef Table bird_tt[4]               # the frame's bird goal searches, one a bird
    cdef ScoreState state               # the query's
    cdef int leaf[LEAVES]               # the query's leaf table
    cdef Frame* frames                  # ScoreState.frames
    cdef uint32_t* frame_query          # ScoreState.frame_query
    cdef readonly double tt_mb

    cdef int _set(self, Hand forehand, Hand dealer, int leader, int declarer, int led, steps, int birds, int valat,
                  leaf, bint framed) except -1
    cdef int _test(self, int beta)


cdef int score_search(ScoreState* s, int beta) noexcept nogil
cpdef int leaf_index(int steps, int birds, int valat) noexcept nogil

# Pieces of the search that the tests' views (_testing.pyx) check on their
# own, through this contract like any other module.  Defined in _score.pyx,
# all but frame_of inline, so that the search's own calls stay inline.
cdef int leaf_score(ScoreState* s) noexcept nogil
cdef int bird_state(int birds, int card, int seat, int winner, int cards) noexcept nogil
cdef Frame* frame_of(ScoreState* s, Hand in_play) noexcept nogil
cdef bint by_thirds(ScoreState* s, Frame* frame) noexcept nogil
cdef void score_key(ScoreKey* key, ScoreState* s, Frame* frame, Hand in_play, int in_play_thirds, bint thirds_entry,
                    int beta) noexcept nogil
