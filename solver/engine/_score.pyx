# cython: language_level=3
"""The score-optimal search: the declarer's net game points with best play,
the declarer maximising them and the defender minimising them.

The net score depends on more than the thirds: on the thresholds the
declarer's thirds reach (the win, Absolut, Panzer), on which birds won
their tricks and which were beaten there, and on whether one side took
every trick.  The search carries those along and scores each finished hand
by a table the caller builds from the scoring rules, so no rule is written
here.  Positions are stored with the thirds and the states so far, by their
real cards (the birds II-IV are not interchangeable here).

    leaf index = (steps * 256 + birds) * 4 + valat
      steps   thresholds reached: 0 to 3
      birds   two bits a bird, I in bits 0-1 to IV in bits 6-7:
              0 not decided (or played outside its trick), 1 won its trick,
              2 beaten in its trick
      valat   bit 0: the declarer took every trick so far; bit 1: the defender
"""

from libc.stdint cimport int8_t, int16_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memset

from kosolve.engine._bits cimport NO_CARD, PAGAT, Hand, bit, legal_replies, popcount, reply_wins, trick_thirds
from kosolve.engine._alphabeta cimport CUTOFF, NO_GAIN, fold_value
from kosolve.engine._movegen cimport MAX_MOVES, order_leads, order_replies

cdef extern from *:
    """
    #define KOSOLVE_BIRD_CARDS 0x0000000F00000000ULL
    """
    const Hand BIRD_CARDS "KOSOLVE_BIRD_CARDS"

cdef enum:
    INFINITE = 1 << 14
    LEAVES = 4 * 256 * 4
    UNBOUNDED = 32767


cdef struct ScoreEntry:
    Hand forehand       # forehand's cards | leader << 62 | 1 << 63 (so that no entry of a position is 0)
    Hand dealer         # dealer's cards
    uint32_t context    # thirds since the root (bits 0-7) | birds << 8 | valat << 16
    int16_t lower       # the declarer's net score is at least this
    int16_t upper       # ... and at most this
    int8_t move         # best (or refuting) lead, NO_CARD if none
    uint8_t age         # the query that wrote it: entries of other queries do not count


cdef struct ScoreState:
    Hand hand[2]            # the cards each seat still holds
    int leader              # the seat that leads the current trick
    int led                 # the card led to the current trick, NO_CARD at a trick boundary
    int declarer            # the seat whose net score is searched
    int thirds              # the declarer's thirds taken since the root
    int birds               # the birds' states, two bits each (see the module notes)
    int valat               # bit 0: the declarer took every trick so far; bit 1: the defender
    int steps[3]            # thirds since the root that reach the win, Absolut and Panzer
    const int* leaf         # the net score of each finished hand, by leaf index
    uint64_t nodes          # cards played in the search
    ScoreEntry* entries     # the table: 2 * (mask + 1) entries in buckets of two
    uint64_t mask           # buckets - 1
    uint8_t age             # the current query


cdef inline int leaf_score(ScoreState* s) noexcept nogil:
    cdef int steps = (s.thirds >= s.steps[0]) + (s.thirds >= s.steps[1]) + (s.thirds >= s.steps[2])
    return s.leaf[(steps * 256 + s.birds) * 4 + s.valat]


cdef inline uint32_t context_of(ScoreState* s) noexcept nogil:
    return <uint32_t>(s.thirds | (s.birds << 8) | (s.valat << 16))


cdef inline ScoreEntry* bucket_of(ScoreState* s, Hand key0, uint32_t context) noexcept nogil:
    cdef uint64_t h = (key0 ^ (<uint64_t>context << 20)) * <uint64_t>0x9E3779B97F4A7C15ULL
    h ^= s.hand[1] * <uint64_t>0xC2B2AE3D27D4EB4FULL
    h ^= h >> 31
    return s.entries + 2 * (h & s.mask)


cdef inline bint matches(ScoreState* s, ScoreEntry* e, Hand key0, uint32_t context) noexcept nogil:
    return e.age == s.age and e.forehand == key0 and e.dealer == s.hand[1] and e.context == context


cdef inline int bird_state(int birds, int card, int seat, int winner, int cards) noexcept nogil:
    """The birds' states once ``card`` of ``seat`` is played to a trick
    begun with ``cards`` cards in each hand (trick 17 - cards)."""
    cdef int index = card - PAGAT
    if 0 <= index < 4 and 17 - cards == 16 - index:
        birds |= (1 if seat == winner else 2) << (2 * index)
    return birds


cdef inline int trick_birds(ScoreState* s, int led, int reply, int leader, int winner, int cards) noexcept nogil:
    return bird_state(bird_state(s.birds, led, leader, winner, cards), reply, 1 - leader, winner, cards)


cdef int score_lead(ScoreState* s, int beta) noexcept nogil:
    cdef int leader = s.leader
    cdef bint maximizing = leader == s.declarer
    cdef int best = -INFINITE if maximizing else INFINITE
    cdef int best_move = NO_CARD, tt_move = NO_CARD
    cdef int n, i, card, value, step
    cdef int8_t moves[MAX_MOVES]
    cdef Hand key0
    cdef uint32_t context
    cdef ScoreEntry* bucket
    cdef ScoreEntry* e = NULL
    if not (s.hand[0] | s.hand[1]):
        return leaf_score(s)
    key0 = s.hand[0] | (<Hand>leader << 62) | (<Hand>1 << 63)
    context = context_of(s)
    bucket = bucket_of(s, key0, context)
    if matches(s, bucket, key0, context):
        e = bucket
    elif matches(s, bucket + 1, key0, context):
        e = bucket + 1
    if e != NULL:
        if e.lower >= beta:
            return e.lower
        if e.upper < beta:
            return e.upper
        tt_move = e.move
    n = order_leads(s.hand[leader], s.hand[1 - leader], tt_move, BIRD_CARDS, moves, maximizing)
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
    if e == NULL:
        # A new position replaces the entry of another query, else the second.
        e = bucket if bucket.age != s.age else bucket + 1
        e.forehand, e.dealer, e.context = key0, s.hand[1], context
        e.lower, e.upper, e.move, e.age = -UNBOUNDED, UNBOUNDED, NO_CARD, s.age
    if best >= beta:
        e.lower = <int16_t>max(e.lower, best)
        e.move = <int8_t>best_move
    else:
        e.upper = <int16_t>min(e.upper, best)
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
    n = order_replies(legal_replies(s.hand[follower], led), s.hand[0] | s.hand[1] | bit(led), led, BIRD_CARDS,
                      moves)
    for i in range(n):
        card = moves[i]
        winner = follower if reply_wins(led, card) else leader
        s.nodes += 1
        if winner == s.declarer:
            s.thirds = thirds + trick_thirds(led, card)
            s.valat = valat & 1
        else:
            s.valat = valat & 2
        s.birds = trick_birds(s, led, card, leader, winner, cards)
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


cdef class ScoreSolver:
    """The score-optimal search with a table of its own.

    ``leaf`` holds the net score of every finished hand (see the module
    notes); ``steps`` the declarer's thirds still needed for the win,
    Absolut and Panzer; ``birds`` and ``valat`` the states so far.  Values
    are the declarer's net game points.
    """

    cdef ScoreState state
    cdef int leaf[LEAVES]
    cdef readonly double tt_mb

    def __cinit__(self, double tt_mb=16.0):
        cdef size_t n = 1
        if not tt_mb > 0:
            raise ValueError("the table size must be positive")
        while n * 4 * sizeof(ScoreEntry) <= <size_t>(tt_mb * 1024 * 1024):
            n *= 2
        self.state.entries = <ScoreEntry*> calloc(2 * n, sizeof(ScoreEntry))
        if self.state.entries == NULL:
            raise MemoryError("cannot allocate the score table")
        self.state.mask = n - 1
        self.state.age = 0
        self.state.nodes = 0
        self.state.leaf = self.leaf
        self.tt_mb = tt_mb

    def __dealloc__(self):
        free(self.state.entries)

    cdef int _set(self, Hand forehand, Hand dealer, int leader, int declarer, int led, steps, int birds, int valat,
                  leaf) except -1:
        if len(leaf) != LEAVES or len(steps) != 3:
            raise ValueError(f"the leaf table has {LEAVES} scores and there are 3 steps")
        for i in range(LEAVES):
            self.leaf[i] = leaf[i]
        for i in range(3):
            self.state.steps[i] = min(max(steps[i], -1), 1000)
        self.state.hand[0], self.state.hand[1] = forehand, dealer
        self.state.leader, self.state.declarer, self.state.led = leader, declarer, led
        self.state.thirds, self.state.birds, self.state.valat = 0, birds, valat
        self.state.age = <uint8_t>(self.state.age + 1)
        if self.state.age == 0:
            memset(self.state.entries, 0, 2 * (self.state.mask + 1) * sizeof(ScoreEntry))
            self.state.age = 1
        return 0

    def solve(self, Hand forehand, Hand dealer, int leader, int declarer, int led, steps, int birds, int valat,
              leaf):
        """``(score, line)``: the declarer's net score with best play and a
        line of play that reaches it."""
        cdef int8_t moves[MAX_MOVES]
        cdef int lo, hi, mid, beta, value, n, i, card
        cdef bint maximizing, keeps
        cdef ScoreState parent
        self._set(forehand, dealer, leader, declarer, led, steps, birds, valat, leaf)
        values = sorted(set(leaf))
        # Bisection over the scores a finished hand can have.
        lo, hi = 0, len(values) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            beta = values[mid]
            with nogil:
                value = score_search(&self.state, beta)
            if value >= beta:
                lo = mid
            else:
                hi = mid - 1
        value = values[lo]
        line = []
        while self.state.hand[0] | self.state.hand[1]:
            parent = self.state
            maximizing = (parent.leader if parent.led == NO_CARD else 1 - parent.leader) == parent.declarer
            if parent.led == NO_CARD:
                n = order_leads(parent.hand[parent.leader], parent.hand[1 - parent.leader], NO_CARD, BIRD_CARDS,
                                moves, maximizing)
            else:
                n = order_replies(legal_replies(parent.hand[1 - parent.leader], parent.led),
                                  parent.hand[0] | parent.hand[1] | bit(parent.led), parent.led, BIRD_CARDS, moves)
            keeps = False
            for i in range(n):
                card = moves[i]
                self.state = parent
                self._play(card)
                with nogil:
                    if maximizing:
                        keeps = score_search(&self.state, value) >= value
                    else:
                        keeps = score_search(&self.state, value + 1) <= value
                parent.nodes = self.state.nodes
                if keeps:
                    break
            if not keeps:
                raise RuntimeError("no card keeps the score: the search is inconsistent")
            line.append(card)
        return value, line

    cdef void _play(self, int card):
        cdef ScoreState* s = &self.state
        cdef int leader = s.leader, winner, cards
        if s.led == NO_CARD:
            s.hand[leader] ^= bit(card)
            s.led = card
            return
        cards = popcount(s.hand[1 - leader])
        s.hand[1 - leader] ^= bit(card)
        winner = 1 - leader if reply_wins(s.led, card) else leader
        if winner == s.declarer:
            s.thirds += trick_thirds(s.led, card)
            s.valat &= 1
        else:
            s.valat &= 2
        s.birds = trick_birds(s, s.led, card, leader, winner, cards)
        s.leader = winner
        s.led = NO_CARD

    @property
    def nodes(self):
        return self.state.nodes
