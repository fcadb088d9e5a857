# The search: a fail-soft null-window alpha-beta over the declarer's future
# thirds, driven by bisection over thirds or, from a good guess, MTD(f).  It
# reads and writes the transposition table only through tt_key, tt_probe,
# tt_move and tt_store.

from libc.stdint cimport int8_t, uint64_t

from kosolve.engine._bits cimport NO_CARD, Hand
from kosolve.engine._lookalike cimport LookAlikeTable
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
    LookAlikeTable* lookalike   # this thread's bounds for look-alike positions (_lookalike.pxd); NULL for none


cdef inline void init_search_state(SearchState* s, Hand forehand, Hand dealer, int leader, int led, int declarer,
                                   Table* tt, Table* goal_tt) noexcept nogil:
    """Prepare ``s`` to search the declarer's thirds from this position on
    these tables, without a goal (a goal query then sets one:
    set_search_goal) and with no node counted yet.  Every search, the
    solver's and the score search's, starts here, so that none can leave
    a field of an earlier search behind."""
    s.hand[0], s.hand[1] = forehand, dealer
    s.leader, s.led, s.declarer = leader, led, declarer
    s.nodes = 0
    s.tt, s.goal_tt = tt, goal_tt
    s.lookalike = NULL
    set_search_goal(s, GOAL_NONE, NO_CARD, 0, False)


cdef inline void set_search_goal(SearchState* s, int goal, int card, int cards, bint points) noexcept nogil:
    """The goal of a prepared search: ``goal`` (GOAL_BIRD: the bird ``card``
    wins the trick that starts with ``cards`` cards in each hand), with the
    thirds counted beside it if ``points``."""
    s.goal, s.goal_card, s.goal_cards, s.goal_points = goal, card, cards, points


cdef int search(SearchState* s, int beta) noexcept nogil
cdef int exact_value(SearchState* s) noexcept nogil
cdef int mtdf_value(SearchState* s, int guess, int lower, int upper) noexcept nogil
cdef int thirds_in_play(SearchState* s) noexcept nogil

cdef void value_cards(SearchState* root, int n, int8_t* moves, SearchState* children, int* gains,
                      int* values) noexcept nogil

cdef inline const char* table_capsule_name() noexcept nogil:
    """The name of the capsule that carries a Solver's main table to a ScoreSolver."""
    return b"kosolve.engine.Table"
