# cython: language_level=3
"""The score-optimal search: the declarer's net game points with best play,
the declarer maximising them and the defender minimising them.

The net score depends on more than the thirds: on the thresholds the
declarer's thirds reach (the win, Absolut, Panzer), on which birds won
their tricks and which were beaten there, and on whether one side took
every trick.  The search carries those along and scores each finished hand
by a table the caller builds from the scoring rules, so no rule is written
here.  Positions are stored by the point search's pattern of their cards
(_tt.pxd: the low cards of a suit, and the tarocks II..XX, count only by
their number) and which of the birds II-IV are still in play, which tells
them apart from the other low tarocks; with the states so far and, for each
threshold, the thirds still needed to reach it (0 once reached, one more
than the thirds in play once out of reach: nothing else about the thirds so
far matters).

The frame.  Whatever the birds and the Valat do, the net score of a finished
hand is a function of the thresholds reached, and the point search tells
which the declarer reaches with best play for points: he can take at least
V more thirds and the defender can hold him to V.  So if, whatever the birds
and the Valat still open can give, every hand that reaches the thresholds V
reaches scores at least beta, the declarer's points play alone reaches beta;
if every hand that stays below them scores less, the defender's points play
alone keeps him below.  Each lead node tests that first, with one or two
null-window point searches ("reaches") at the thresholds, on a pattern-keyed
point table that stays valid across queries.  Where no bird and no Valat is
open any more the frame is exact, so the score search never goes deeper
there; it searches on only where a bird or the Valat can still tip the test.

The leaf table is laid out by :func:`leaf_index`, whose constants
(``LEAVES``, ``BIRD_WON``, ``VALAT_DECLARER`` and the others) are this
module's too (_score.pxd is their one definition).

Entries by thirds.  Where the score never falls as thresholds are reached
(the scoring makes it so; the leaf table is checked) the declarer's score
can only grow with the thirds he took before a position, so a test at a
level passes from some number of thirds so far on.  Late in the hand,
where a threshold still matters, an entry keyed by the cards, the birds,
the Valat and the test's level (not the thirds still needed) holds the
least thirds so far known to pass and the most known to fail: one entry
for every way of reaching the position.

Table entries, 32 bytes, two to a bucket (the slot is _table.pxd's):

    offset  size  field
         0     8  the point search's key word: holder | pattern bits 0-31 << 32; or, keyed by
                  ranks alone (no threshold can change the score): holder | the cards in play
                  of each suit (4 bits each) and of the tarocks (5 bits) << 32
         8     8  the point search's tag (pattern bits 32-35, leader, declarer) | birds II-IV in play << 8;
                  or, by ranks: leader | declarer << 1 | birds I-IV in play << 8 | 1 << 16
        16     8  context: thirds still needed for the win, Absolut and Panzer (8 bits each,
                  clamped to 0 and the thirds in play + 1; 0 for a threshold whose reaching
                  changes no score the node can end in) | birds << 24 | valat << 32; in an
                  entry by thirds (below), no thirds needed but the test's level << 40 | 1 << 56
                  (each key word stored XOR the slot, bytes 24-31, so that a probe
                  sees a torn entry as a miss: _table.pxd)
        24     2  lower bound on the declarer's net score; by thirds: minus the least thirds
                  so far known to pass the test
        26     2  upper bound; by thirds: minus the most thirds so far known to fail it
        28     1  the lead that last raised the lower bound, as its index among the cards in play; -1 if none
        29     1  tag: the leader
        30     1  depth: cards in play when stored
        31     1  age: the queries it counts for: a query that scores finished hands as the one
                  before keeps the age (ScoreSolver._set), any other starts a new one
"""

from cpython.pycapsule cimport PyCapsule_GetPointer
from libc.stdint cimport int8_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc

from kosolve.engine._bits cimport (
    BIRD_CARDS, NO_CARD, PAGAT, TAROCKS, Hand, bit, gather_bits, legal_replies, pile_thirds, play_card, popcount,
    reply_wins, side_to_move, trick_thirds,
)
from kosolve.engine._alphabeta cimport CUTOFF, INFINITE, NO_GAIN, fold_value
from kosolve.engine._movegen cimport (
    MAX_MOVES, lead_candidates, order_candidates, order_leads, order_moves, reply_candidates, settled_leads,
    settled_replies,
)
from kosolve.engine._position cimport position_problem
from kosolve.engine._search cimport (
    GOAL_BIRD, SearchState, init_search_state, search, set_search_goal, table_capsule_name,
)
from kosolve.engine._table cimport (
    NO_MOVE, Slot, Table, hint_card, move_hint, table_allocate, table_new_age, table_probe, table_release, table_stats,
    table_store,
)
from kosolve.engine._tt cimport TT_KEY_WORDS, TTKey, tt_key

from kosolve.engine._search import Solver
from kosolve.engine._table import MIN_TABLE_MB, TableSizeError, check_table_mb
from kosolve.engine.errors import SearchInputError

SCORE_TT_MB = 16.0
"""The default size of the score search's tables: half for its own entries,
the rest for the point and bird goal searches of its frame."""

cdef enum:
    RANK_KEY = 1 << 16      # the score key's flag of a key by ranks alone (score_key)
    BIRD_FRAME_CARDS = 6    # the bird frame is tried with at most this many cards a hand (from trick 11 on)
    THIRDS_ENTRY_CARDS = 10  # entries by thirds with at most this many cards a hand (from trick 7 on)
    UNDECIDED = 0       # the frame leaves the null-window test open
    AT_LEAST = 1        # the frame proves the value >= beta
    BELOW = 2           # the frame proves the value < beta

cdef uint64_t THIRDS_ENTRY = (<uint64_t>1) << 56   # the context's flag of an entry by thirds (score_lead)


cpdef inline int leaf_index(int steps, int birds, int valat) noexcept nogil:
    """The index in the leaf table of a hand finished with ``steps``
    thresholds reached (0 to STEPS: the win, Absolut, Panzer), the birds'
    states ``birds`` (BIRD_BITS a bird, the bird I in the lowest: each
    BIRD_OPEN, BIRD_WON or BIRD_BEATEN) and the Valat bits ``valat``
    (VALAT_DECLARER: the declarer took every trick; VALAT_DEFENDER: the
    defender)."""
    return (steps * BIRD_STATES + birds) * VALAT_STATES + valat


cdef inline int leaf_score(ScoreState* s) noexcept nogil:
    cdef int steps = (s.thirds >= s.steps[0]) + (s.thirds >= s.steps[1]) + (s.thirds >= s.steps[2])
    return s.leaf[leaf_index(steps, s.birds, s.valat)]


cdef inline bint by_thirds(ScoreState* s, Frame* frame) noexcept nogil:
    """Whether the node's entry records, for the test at hand, the least
    thirds so far that pass it (see score_lead) rather than bounds on the
    score: where a threshold still matters and the score never falls as
    thresholds are reached, and late enough in the hand.  Such an entry
    serves every way of reaching the position, whatever the thirds taken
    on the way, but only tests at its own level; earlier in the hand the
    bounds' reuse across the tests' levels is worth more
    (docs/benchmarks-history.md, "Net scores, second round")."""
    return s.monotone and frame.relevant != 0 and popcount(s.hand[0]) <= THIRDS_ENTRY_CARDS


cdef inline void score_key(ScoreKey* key, ScoreState* s, Frame* frame, Hand in_play, int in_play_thirds,
                           bint thirds_entry, int beta) noexcept nogil:
    """The entry's key: the point search's pattern key of the cards (which
    counting cards, how many low cards of each suit and of the tarocks, who
    holds each, the leader and the declarer), which of the birds II-IV are
    in play (the pattern counts them among the low tarocks; they are its
    lowest, so that says which they are), and the context.  A threshold
    whose reaching changes no score the node can still end in (the frame's
    ``relevant``) keys as 0: the thirds so far then do not tell positions
    apart, as in a pure game of birds once an announced Valat has failed.
    An entry by thirds (``thirds_entry``, by_thirds) keys the test's level
    ``beta`` instead of the thirds still needed."""
    cdef TTKey cards
    cdef uint64_t context = (<uint64_t>s.birds << 24) | (<uint64_t>s.valat << 32)
    cdef uint64_t h, counts = 0
    cdef int k, need
    if thirds_entry:
        context |= ((<uint64_t>(beta & 0xFFFF)) << 40) | THIRDS_ENTRY
    else:
        for k in range(STEPS):
            if frame.relevant >> k & 1:
                need = min(max(s.steps[k] - s.thirds, 0), in_play_thirds + 1)
                context |= <uint64_t>need << (8 * k)
    if frame.relevant:
        tt_key(&cards, s.hand[0], s.hand[1], s.leader, s.declarer, 0)
        key.words[0] = cards.key
        key.words[1] = cards.tag | (((in_play & BIRD_CARDS) >> (PAGAT + 1)) << 8)
    else:
        # No threshold matters, so neither do the cards' points: only who
        # holds each card in play, in rank order, and how many of each suit
        # and of the tarocks there are (the birds are the lowest tarocks, and
        # which are in play is keyed beside).  RANK_KEY tells the two kinds apart.
        for k in range(4):
            counts |= <uint64_t>popcount(in_play & (<Hand>0xFF << (8 * k))) << (4 * k)
        counts |= <uint64_t>popcount(in_play & TAROCKS) << 16
        key.words[0] = gather_bits(s.hand[0], in_play) | (counts << 32)
        key.words[1] = (<uint64_t>s.leader | (<uint64_t>s.declarer << 1) | RANK_KEY
                        | (((in_play & BIRD_CARDS) >> PAGAT) << 8))
    key.words[2] = context
    h = (key.words[0] ^ (key.words[1] << 56) ^ (key.words[1] >> 8)) * <uint64_t>0x9E3779B97F4A7C15ULL
    h ^= (context + (h >> 29)) * <uint64_t>0xC2B2AE3D27D4EB4FULL
    key.hash = h ^ (h >> 31)


cdef Frame* frame_of(ScoreState* s, Hand in_play) noexcept nogil:
    """The frame of the node: for each number of thresholds reached, the
    least and the most net score over every state the birds and the Valat
    can still end in.  A bird is open while it is in play and its trick is
    still to come (it may yet win it, be beaten in it or be played before);
    the Valat bits can only be lost, and at least one goes with a trick."""
    cdef int trick = 17 - popcount(s.hand[1 - s.leader])
    cdef int open_birds = 0, fixed = 0, i, code, step, v, value, index
    cdef int valats[3]
    cdef int n_valats
    cdef Frame* frame
    for i in range(4):
        if in_play >> (PAGAT + i) & 1 and 16 - i >= trick:
            open_birds |= 1 << i
        else:
            fixed |= 3 << (BIRD_BITS * i)
    index = (open_birds * BIRD_STATES + s.birds) * VALAT_STATES + s.valat
    frame = &s.frames[index]
    if s.frame_query[index] == s.query:
        return frame
    if s.valat == VALAT_DECLARER | VALAT_DEFENDER:
        valats[0], valats[1], valats[2], n_valats = 0, 1, 2, 3
    elif s.valat:
        valats[0], valats[1], n_valats = 0, s.valat, 2
    else:
        valats[0], n_valats = 0, 1
    frame.open_birds = open_birds
    frame.relevant = 0
    for step in range(STEPS + 1):
        frame.low[step], frame.high[step] = INFINITE, -INFINITE
        for i in range(4):
            frame.won_low[i][step] = frame.other_low[i][step] = INFINITE
            frame.won_high[i][step] = frame.other_high[i][step] = -INFINITE
    for code in range(BIRD_STATES):
        if code & fixed != s.birds & fixed or (code & (code >> 1) & 0x55):
            continue  # a closed bird's state is fixed, and no state is 3
        for step in range(STEPS + 1):
            for v in range(n_valats):
                value = s.leaf[leaf_index(step, code, valats[v])]
                if step and value != s.leaf[leaf_index(step - 1, code, valats[v])]:
                    frame.relevant |= 1 << (step - 1)
                frame.low[step] = min(frame.low[step], value)
                frame.high[step] = max(frame.high[step], value)
                for i in range(4):
                    if (code >> (BIRD_BITS * i) & 3) == BIRD_WON:
                        frame.won_low[i][step] = min(frame.won_low[i][step], value)
                        frame.won_high[i][step] = max(frame.won_high[i][step], value)
                    else:
                        frame.other_low[i][step] = min(frame.other_low[i][step], value)
                        frame.other_high[i][step] = max(frame.other_high[i][step], value)
    s.frame_query[index] = s.query
    return frame


cdef inline bint reaches(ScoreState* s, int need) noexcept nogil:
    """Whether the declarer can take ``need`` more thirds: one null-window
    point search on the point table."""
    cdef SearchState p
    init_search_state(&p, s.hand[0], s.hand[1], s.leader, s.led, s.declarer, s.points_tt, s.points_tt)
    cdef bint result = search(&p, need) >= need
    s.point_nodes += p.nodes
    return result


cdef inline bint forces_bird(ScoreState* s, int bird, int owner, int need) noexcept nogil:
    """Whether ``owner``, holding the bird I + ``bird``, can make it win its
    trick and take ``need`` more thirds by one strategy: one null-window
    goal search of the point search (GOAL_BIRD with the thirds counted), on
    that bird's goal table and, once the bird has won, the point table."""
    cdef SearchState p
    cdef int beta = max(need, 0)
    init_search_state(&p, s.hand[0], s.hand[1], s.leader, NO_CARD, owner, s.points_tt, &s.bird_tt[bird])
    set_search_goal(&p, GOAL_BIRD, PAGAT + bird, bird + 1, True)
    cdef bint result = search(&p, beta) >= beta
    s.point_nodes += p.nodes
    return result


cdef int bird_frame_test(ScoreState* s, Frame* frame, int beta, int lowest, int highest, int* need,
                         int in_play_thirds, int* bound) noexcept nogil:
    """The frame of one open bird's goal: the test decided by whether the
    bird's holder can make it together with a number of thresholds (for the
    defender: with the declarer held below them).  If he can, the outcome
    has the bird won and those thresholds; if he cannot, the other side has
    a strategy that stops the pair, so the outcome lacks one of the two."""
    cdef int i, step, found, least, most, other
    for i in range(4):
        if not frame.open_birds >> i & 1:
            continue
        if s.hand[s.declarer] >> (PAGAT + i) & 1:
            # The fewest thresholds that, with the bird won, prove >= beta.
            least, found = INFINITE, -1
            for step in range(highest, lowest - 1, -1):
                least = min(least, frame.won_low[i][step])
                if least < beta:
                    break
                found, bound[0] = step, least
            if found < 0:
                continue
            if forces_bird(s, i, s.declarer, need[found - 1] if found > lowest else 0):
                return AT_LEAST
            most = -INFINITE
            for step in range(lowest, highest + 1):
                most = max(most, frame.other_high[i][step])
                if step < found:
                    most = max(most, frame.won_high[i][step])
            if most < beta:
                bound[0] = most
                return BELOW
        else:
            # The most thresholds that, with the defender's bird won, prove < beta.
            most, found = -INFINITE, -1
            for step in range(lowest, highest + 1):
                most = max(most, frame.won_high[i][step])
                if most >= beta:
                    break
                found, bound[0] = step, most
            if found < 0:
                continue
            # The declarer below threshold ``found``: the defender takes the rest and one more.
            other = in_play_thirds - need[found] + 1 if found < highest else 0
            if forces_bird(s, i, 1 - s.declarer, other):
                return BELOW
            least = INFINITE
            for step in range(lowest, highest + 1):
                least = min(least, frame.other_low[i][step])
                if step > found:
                    least = min(least, frame.won_low[i][step])
            if least >= beta:
                bound[0] = least
                return AT_LEAST
    return UNDECIDED


cdef int frame_test(ScoreState* s, Frame* frame, int beta, int in_play_thirds, int* bound) noexcept nogil:
    """Decide the null-window test ``value >= beta`` by the frame when it
    can: AT_LEAST or BELOW with a fail-soft ``bound``, else UNDECIDED.

    Thresholds are reached in order; ``lowest`` of them are reached already
    and no more than ``highest`` can be.  With V the declarer's future thirds
    for points and r the thresholds t + V reaches, the declarer can force
    r or more and the defender r or fewer, so the value lies between the
    least low score of the steps r..highest and the greatest high score of
    lowest..r.  ``frame`` is the node's (frame_of)."""
    cdef int need[STEPS]
    cdef int lowest = 0, highest = 0, reachable, k, step, least, most, found
    for k in range(STEPS):
        need[k] = s.steps[k] - s.thirds
        lowest += need[k] <= 0
        highest += need[k] <= in_play_thirds
    # What the points play proves narrows the thresholds for its bounds only.
    reachable = highest
    # The fewest thresholds whose reaching proves >= beta.
    least, found = INFINITE, -1
    for step in range(highest, lowest - 1, -1):
        least = min(least, frame.low[step])
        if least < beta:
            break
        found, bound[0] = step, least
    if found >= 0:
        if found == lowest or reaches(s, need[found - 1]):
            return AT_LEAST
        highest = found - 1
    # The most thresholds whose missing proves < beta.
    most, found = -INFINITE, -1
    for step in range(lowest, highest + 1):
        most = max(most, frame.high[step])
        if most >= beta:
            break
        found, bound[0] = step, most
    if found >= 0 and (found == highest or not reaches(s, need[found])):
        return BELOW
    # The bird goal searches pay only near the birds' tricks: with more cards
    # in hand each costs more than the score search it saves
    # (docs/benchmarks-history.md, "Net scores" and "Net scores, second round").
    if s.led == NO_CARD and frame.open_birds and popcount(s.hand[0]) <= BIRD_FRAME_CARDS:
        return bird_frame_test(s, frame, beta, lowest, reachable, need, in_play_thirds, bound)
    return UNDECIDED


cdef inline int bird_state(int birds, int card, int seat, int winner, int cards) noexcept nogil:
    """The birds' states once ``card`` of ``seat`` is played to a trick
    begun with ``cards`` cards in each hand (trick 17 - cards)."""
    cdef int index = card - PAGAT
    if 0 <= index < 4 and 17 - cards == 16 - index:
        birds |= (BIRD_WON if seat == winner else BIRD_BEATEN) << (BIRD_BITS * index)
    return birds


cdef inline void count_trick(ScoreState* s, int led, int reply, int leader, int winner, int cards) noexcept nogil:
    """What a completed trick does to the thirds, the Valat and the birds."""
    if winner == s.declarer:
        s.thirds += trick_thirds(led, reply)
        s.valat &= VALAT_DECLARER
    else:
        s.valat &= VALAT_DEFENDER
    s.birds = bird_state(bird_state(s.birds, led, leader, winner, cards), reply, 1 - leader, winner, cards)


cdef inline void store_result(ScoreState* s, ScoreKey* key, bint thirds_entry, int depth, int value, int beta,
                              int move) noexcept nogil:
    """Record a test's fail-soft result: as bounds on the score, or, in an
    entry by thirds, as the thirds so far that pass the test or fail it
    (negated, so that the table's keeping of the best bounds keeps the
    least that passes and the most that fails)."""
    if thirds_entry:
        table_store(s.tt, key.words, SCORE_KEY_WORDS, <uint8_t>s.leader, key.hash, depth, -s.thirds,
                    -s.thirds if value >= beta else 1 - s.thirds, move)
    else:
        table_store(s.tt, key.words, SCORE_KEY_WORDS, <uint8_t>s.leader, key.hash, depth, value, beta, move)


cdef int score_lead(ScoreState* s, int beta) noexcept nogil:
    cdef int leader = s.leader
    cdef bint maximizing = leader == s.declarer
    cdef int best = -INFINITE if maximizing else INFINITE
    cdef int best_move = NO_CARD, tt_move = NO_CARD
    cdef int n, i, card, value, step, bound, in_play_thirds, depth
    cdef Hand in_play = s.hand[0] | s.hand[1]
    cdef Hand kept
    cdef int8_t moves[MAX_MOVES]
    cdef ScoreKey key
    cdef Slot found
    cdef Slot* e
    cdef Frame* frame
    cdef bint thirds_entry
    if not in_play:
        return leaf_score(s)
    in_play_thirds = pile_thirds(in_play)
    depth = popcount(in_play)
    frame = frame_of(s, in_play)
    thirds_entry = by_thirds(s, frame)
    score_key(&key, s, frame, in_play, in_play_thirds, thirds_entry, beta)
    e = table_probe(s.tt, key.words, SCORE_KEY_WORDS, <uint8_t>leader, key.hash, &found)
    if e != NULL:
        if thirds_entry:
            # lower = -(the least thirds so far known to pass the test),
            # upper = -(the most known to fail it): the test can only pass
            # with more thirds so far, the score being monotone in them.
            if -s.thirds <= e.lower:
                return beta
            if -s.thirds >= e.upper:
                return beta - 1
        else:
            if e.lower >= beta:
                return e.lower
            if e.upper < beta:
                return e.upper
        tt_move = hint_card(in_play, e.move)
    if s.framed and frame_test(s, frame, beta, in_play_thirds, &bound) != UNDECIDED:
        store_result(s, &key, thirds_entry, depth, bound, beta, NO_MOVE)
        return bound
    kept = lead_candidates(s.hand[leader], s.hand[1 - leader], BIRD_CARDS)
    if s.monotone:
        # Dominated leads (_movegen.pxd) may go: the birds stay alone, and the
        # score, never falling as the declarer's thirds grow, favours the
        # card kept as the thirds do.
        kept = settled_leads(kept, s.hand[leader], s.hand[1 - leader], BIRD_CARDS)
    n = order_leads(kept, s.hand[leader], s.hand[1 - leader], tt_move, moves, maximizing)
    for i in range(n):
        card = moves[i]
        s.hand[leader] ^= bit(card)
        s.led = card
        s.nodes += 1
        value = score_reply(s, beta)
        s.hand[leader] ^= bit(card)
        s.led = NO_CARD
        step = fold_value(maximizing, value, &best, beta)
        if step != NO_GAIN:
            best_move = card
            if step == CUTOFF:
                break
    store_result(s, &key, thirds_entry, depth, best, beta, move_hint(in_play, best_move if best >= beta else NO_CARD))
    return best


cdef int score_reply(ScoreState* s, int beta) noexcept nogil:
    cdef int leader = s.leader
    cdef int follower = 1 - leader
    cdef int led = s.led
    cdef int cards = popcount(s.hand[follower])
    cdef bint maximizing = follower == s.declarer
    cdef int best = -INFINITE if maximizing else INFINITE
    cdef int n, i, card, value, winner, thirds = s.thirds, birds = s.birds, valat = s.valat
    cdef int8_t moves[MAX_MOVES]
    cdef Hand legal = legal_replies(s.hand[follower], led)
    cdef Hand kept = reply_candidates(legal, s.hand[0] | s.hand[1] | bit(led), BIRD_CARDS)
    if s.monotone:
        kept = settled_replies(kept, legal, s.hand[leader], led, BIRD_CARDS)
    n = order_candidates(kept, led, moves)
    for i in range(n):
        card = moves[i]
        winner = follower if reply_wins(led, card) else leader
        s.nodes += 1
        count_trick(s, led, card, leader, winner, cards)
        s.hand[follower] ^= bit(card)
        s.leader = winner
        s.led = NO_CARD
        value = score_lead(s, beta)
        s.hand[follower] ^= bit(card)
        s.leader, s.led, s.thirds, s.birds, s.valat = leader, led, thirds, birds, valat
        if fold_value(maximizing, value, &best, beta) == CUTOFF:
            break
    return best


cdef int score_search(ScoreState* s, int beta) noexcept nogil:
    if s.led == NO_CARD:
        return score_lead(s, beta)
    return score_reply(s, beta)


cdef inline void play(ScoreState* s, int card) noexcept nogil:
    """Play ``card`` for the side to move and count a completed trick."""
    cdef int leader = s.leader, led = s.led
    cdef int cards = popcount(s.hand[1 - leader])
    cdef int winner = play_card(s.hand, &s.leader, &s.led, card)
    if winner >= 0:
        count_trick(s, led, card, leader, winner, cards)


cdef class ScoreSolver:
    """The score-optimal search with tables of its own: ``tt_mb`` megabytes,
    half for its entries (valid while the queries score finished hands
    alike), a quarter for the point
    searches of its frame and a sixteenth for each bird's goal searches
    (these valid across queries, so reusing the solver keeps them warm).
    Given a ``points`` :class:`~kosolve.engine._search.Solver`, the frame
    searches on that solver's main table instead of a quarter of its own:
    what the points solve of a position stored serves the net score of the
    same position, and the other way round.

    ``leaf`` holds the net score of every finished hand (by
    :func:`leaf_index`); ``steps`` the declarer's thirds still needed for the win,
    Absolut and Panzer, in that order; ``birds`` and ``valat`` the states so
    far.  Values are the declarer's net game points.
    """

    def __cinit__(self, double tt_mb=SCORE_TT_MB, points=None):
        check_table_mb(tt_mb)
        if tt_mb < 16 * MIN_TABLE_MB:
            raise TableSizeError(f"the score search's tables take at least {16 * MIN_TABLE_MB * 1024:g} KB")
        self.frames = <Frame*>malloc(FRAMES * sizeof(Frame))
        self.frame_query = <uint32_t*>calloc(FRAMES, sizeof(uint32_t))
        if self.frames == NULL or self.frame_query == NULL:
            raise MemoryError("cannot allocate the score search's frames")
        table_allocate(&self.tt, tt_mb / 2, SCORE_KEY_WORDS, True)
        for i in range(4):
            table_allocate(&self.bird_tt[i], tt_mb / 16, TT_KEY_WORDS, False)
        self.state.tt = &self.tt
        if points is None:
            table_allocate(&self.points_tt, tt_mb / 4, TT_KEY_WORDS, False)
            self.state.points_tt = &self.points_tt
        else:
            if not isinstance(points, Solver):
                raise TypeError(f"points must be a Solver, not {type(points).__name__}")
            self.points = points
            self.state.points_tt = <Table*>PyCapsule_GetPointer(points._table_capsule(), table_capsule_name())
        self.state.bird_tt = self.bird_tt
        self.state.nodes = self.state.point_nodes = 0
        self.state.leaf = self.leaf
        self.state.frames = self.frames
        self.state.frame_query = self.frame_query
        self.state.query = 0
        self.tt_mb = tt_mb

    def __dealloc__(self):
        table_release(&self.tt)
        if self.points is None:
            table_release(&self.points_tt)
        for i in range(4):
            table_release(&self.bird_tt[i])
        free(self.frames)
        free(self.frame_query)

    cdef int _set(self, Hand forehand, Hand dealer, int leader, int declarer, int led, steps, int birds, int valat,
                  leaf, bint framed) except -1:
        problem = position_problem(forehand, dealer, leader, declarer, led)
        if problem is not None:
            raise SearchInputError(problem)
        if len(leaf) != LEAVES or len(steps) != STEPS:
            raise SearchInputError(f"the leaf table has {LEAVES} scores and there are {STEPS} steps")
        if list(steps) != sorted(steps):
            raise SearchInputError("the steps (the win, Absolut, Panzer) ascend")
        if not 0 <= birds < BIRD_STATES or any(birds >> (BIRD_BITS * i) & 3 == 3 for i in range(4)):
            raise SearchInputError("each bird's state is 0 (open), 1 (won its trick) or 2 (beaten in it)")
        if not 0 <= valat < VALAT_STATES:
            raise SearchInputError("the Valat state has two bits: the declarer's and the defender's")
        # A query that scores finished hands as the one before, with its
        # thresholds all the same number of thirds nearer (or all further)
        # than that one's, asks of every position what that one asked: the
        # position's thirds so far start at that number, the thresholds stay
        # as they were, and the entries and frames keep (below).
        same_scoring = self.state.query > 0 and framed == self.state.framed
        for i in range(LEAVES):
            same_scoring = same_scoring and self.leaf[i] == leaf[i]
            self.leaf[i] = leaf[i]
        step = leaf_index(1, 0, 0)  # the same finish with one more threshold reached is this many leaves on
        self.state.monotone = all(leaf[i] <= leaf[i + step] for i in range(LEAVES - step))
        thirds_before = self.state.steps[0] - steps[0] if same_scoring else 0
        for i in range(STEPS):
            # Clamped thresholds lost their distance: they keep only as they are.
            same_scoring = same_scoring and (
                0 <= steps[i] <= 1000 and 0 <= self.state.steps[i] <= 1000
                and self.state.steps[i] - steps[i] == thirds_before
            )
        if not same_scoring:
            thirds_before = 0
            for i in range(STEPS):
                self.state.steps[i] = min(max(steps[i], -1), 1000)
        self.state.hand[0], self.state.hand[1] = forehand, dealer
        self.state.leader, self.state.declarer, self.state.led = leader, declarer, led
        self.state.thirds, self.state.birds, self.state.valat = thirds_before, birds, valat
        self.state.framed = framed
        if same_scoring:
            return 0
        self.state.query += 1
        if self.state.query == 0:  # wrapped round: no frame of an old query may count
            for i in range(FRAMES):
                self.frame_query[i] = 0
            self.state.query = 1
        table_new_age(&self.tt)
        table_new_age(self.state.points_tt)
        for i in range(4):
            table_new_age(&self.bird_tt[i])
        return 0

    cdef int _test(self, int beta):
        """The fail-soft null-window test ``value >= beta`` at the position set."""
        cdef int value = 0, decided = UNDECIDED
        cdef Hand in_play = self.state.hand[0] | self.state.hand[1]
        if self.state.led != NO_CARD:
            in_play |= bit(self.state.led)
        with nogil:
            if in_play and self.state.framed:
                decided = frame_test(&self.state, frame_of(&self.state, in_play), beta, pile_thirds(in_play), &value)
            if decided == UNDECIDED:
                value = score_search(&self.state, beta)
        return value

    def solve(self, Hand forehand, Hand dealer, int leader, int declarer, int led, steps, int birds, int valat,
              leaf, *, bint with_line=True, bint framed=True):
        """``(score, line)``: the declarer's net score with best play and a
        line of play that reaches it (empty without ``with_line``).
        ``framed=False`` searches without the frame's point searches (slow;
        for tests)."""
        cdef int8_t moves[MAX_MOVES]
        cdef int lo, hi, mid, beta, value, above, n, i, card
        cdef bint maximizing, keeps
        cdef ScoreState parent
        self._set(forehand, dealer, leader, declarer, led, steps, birds, valat, leaf, framed)
        values = sorted(set(leaf))
        # Bisection over the scores a finished hand can have, each test
        # framed first at the root.
        lo, hi = 0, len(values) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            beta = values[mid]
            value = self._test(beta)
            if value >= beta:
                lo = mid
                while lo < hi and values[lo + 1] <= value:
                    lo += 1
            else:
                hi = mid - 1
                while hi > lo and values[hi] > value:
                    hi -= 1
        value = values[lo]
        # A card keeps the value for the side minimizing when its score is
        # below the next score a hand can have: the bisection's last failing
        # test was at that level, so its entries serve the line.
        above = values[lo + 1] if lo + 1 < len(values) else value + 1
        line = []
        while with_line and self.state.hand[0] | self.state.hand[1]:
            parent = self.state
            maximizing = side_to_move(parent.leader, parent.led) == parent.declarer
            n = order_moves(parent.hand, parent.leader, parent.led, NO_CARD, BIRD_CARDS, moves, maximizing)
            keeps = False
            for i in range(n):
                card = moves[i]
                self.state = parent
                play(&self.state, card)
                if maximizing:
                    keeps = self._test(value) >= value
                else:
                    keeps = self._test(above) < above
                parent.nodes, parent.point_nodes = self.state.nodes, self.state.point_nodes
                if keeps:
                    break
            if not keeps:
                raise RuntimeError("no card keeps the score: the search is inconsistent")
            line.append(card)
        return value, line

    def at_least(self, Hand forehand, Hand dealer, int leader, int declarer, int led, steps, int birds, int valat,
                 leaf, *, int score, bint framed=True):
        """Whether the declarer's net score with best play is at least
        ``score``: one null-window test, for a decision that needs to know
        no more (the arguments are :meth:`solve`'s)."""
        self._set(forehand, dealer, leader, declarer, led, steps, birds, valat, leaf, framed)
        return self._test(score) >= score

    @property
    def nodes(self):
        """Cards played since the solver was made, in the score search and in
        the point searches of its frame."""
        return self.state.nodes + self.state.point_nodes

    @property
    def stats(self):
        """Counters since the solver was made: nodes searched (both kinds, and
        each), the score table's use (the keys of :attr:`Solver.stats
        <kosolve.engine._search.Solver.stats>`) and the point table's (the
        same keys behind ``points_``)."""
        points = {f"points_{name}": figure for name, figure in table_stats(self.state.points_tt).items()}
        birds = [table_stats(&self.bird_tt[i]) for i in range(4)]
        return {
            "nodes": self.nodes,
            "score_nodes": self.state.nodes,
            "point_nodes": self.state.point_nodes,
            **table_stats(&self.tt),
            **points,
            **{f"birds_{name}": sum(table[name] for table in birds) for name in birds[0]},
        }
