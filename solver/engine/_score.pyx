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

Table entries, 32 bytes, two to a bucket (the slot is _table.pxd's):

    offset  size  field
         0     8  the forehand's cards     } each key word stored XOR the slot (bytes 24-31), so
         8     8  the dealer's cards       } that a probe sees a torn entry as a miss (_table.pxd)
        16     8  context: thirds since the root (bits 0-7) | birds << 8 | valat << 16
        24     2  lower bound on the declarer's net score
        26     2  upper bound
        28     1  the lead that last raised the lower bound, as a card; -1 if none
        29     1  tag: the leader
        30     1  depth: cards in play when stored
        31     1  age: the query that wrote it (entries of other queries do not count)
"""

from libc.stdint cimport int8_t, uint8_t, uint64_t

from kosolve.engine._bits cimport BIRD_CARDS, NO_CARD, PAGAT, Hand, bit, legal_replies, play_card, popcount, reply_wins
from kosolve.engine._bits cimport side_to_move, trick_thirds
from kosolve.engine._alphabeta cimport CUTOFF, INFINITE, NO_GAIN, fold_value, keeping_beta, keeps_target
from kosolve.engine._movegen cimport MAX_MOVES, order_leads, order_moves, order_replies
from kosolve.engine._position cimport position_problem
from kosolve.engine._table cimport (
    NO_MOVE, Slot, Table, table_allocate, table_new_age, table_probe, table_release, table_stats, table_store,
)

from kosolve.engine.errors import SearchInputError

SCORE_TT_MB = 16.0
"""The default size of the score search's table."""


cdef struct ScoreKey:
    uint64_t words[SCORE_KEY_WORDS]     # the entry's key words (see the module notes)
    uint64_t hash                       # the words and the leader mixed: its low bits choose the bucket


cdef inline int leaf_score(ScoreState* s) noexcept nogil:
    cdef int steps = (s.thirds >= s.steps[0]) + (s.thirds >= s.steps[1]) + (s.thirds >= s.steps[2])
    return s.leaf[(steps * 256 + s.birds) * 4 + s.valat]


cdef inline void score_key(ScoreKey* key, ScoreState* s) noexcept nogil:
    cdef uint64_t context = <uint64_t>(s.thirds | (s.birds << 8) | (s.valat << 16))
    cdef uint64_t h
    key.words[0], key.words[1], key.words[2] = s.hand[0], s.hand[1], context
    h = (s.hand[0] ^ (<uint64_t>s.leader << 62) ^ (context << 20)) * <uint64_t>0x9E3779B97F4A7C15ULL
    h ^= s.hand[1] * <uint64_t>0xC2B2AE3D27D4EB4FULL
    key.hash = h ^ (h >> 31)


cdef inline int bird_state(int birds, int card, int seat, int winner, int cards) noexcept nogil:
    """The birds' states once ``card`` of ``seat`` is played to a trick
    begun with ``cards`` cards in each hand (trick 17 - cards)."""
    cdef int index = card - PAGAT
    if 0 <= index < 4 and 17 - cards == 16 - index:
        birds |= (1 if seat == winner else 2) << (2 * index)
    return birds


cdef inline void count_trick(ScoreState* s, int led, int reply, int leader, int winner, int cards) noexcept nogil:
    """What a completed trick does to the thirds, the Valat and the birds."""
    if winner == s.declarer:
        s.thirds += trick_thirds(led, reply)
        s.valat &= 1
    else:
        s.valat &= 2
    s.birds = bird_state(bird_state(s.birds, led, leader, winner, cards), reply, 1 - leader, winner, cards)


cdef int score_lead(ScoreState* s, int beta) noexcept nogil:
    cdef int leader = s.leader
    cdef bint maximizing = leader == s.declarer
    cdef int best = -INFINITE if maximizing else INFINITE
    cdef int best_move = NO_CARD, tt_move = NO_CARD
    cdef int n, i, card, value, step
    cdef int8_t moves[MAX_MOVES]
    cdef ScoreKey key
    cdef Slot found
    cdef Slot* e
    if not (s.hand[0] | s.hand[1]):
        return leaf_score(s)
    score_key(&key, s)
    e = table_probe(s.tt, key.words, SCORE_KEY_WORDS, <uint8_t>leader, key.hash, &found)
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
    table_store(s.tt, key.words, SCORE_KEY_WORDS, <uint8_t>leader, key.hash, popcount(s.hand[0] | s.hand[1]),
                best, beta, best_move if best >= beta else NO_MOVE)
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
    """The score-optimal search with a table of its own.

    ``leaf`` holds the net score of every finished hand (see the module
    notes); ``steps`` the declarer's thirds still needed for the win,
    Absolut and Panzer; ``birds`` and ``valat`` the states so far.  Values
    are the declarer's net game points.
    """

    cdef Table tt
    cdef ScoreState state
    cdef int leaf[LEAVES]
    cdef readonly double tt_mb

    def __cinit__(self, double tt_mb=SCORE_TT_MB):
        table_allocate(&self.tt, tt_mb, SCORE_KEY_WORDS, True)
        self.state.tt = &self.tt
        self.state.nodes = 0
        self.state.leaf = self.leaf
        self.tt_mb = tt_mb

    def __dealloc__(self):
        table_release(&self.tt)

    cdef int _set(self, Hand forehand, Hand dealer, int leader, int declarer, int led, steps, int birds, int valat,
                  leaf) except -1:
        problem = position_problem(forehand, dealer, leader, declarer, led)
        if problem is not None:
            raise SearchInputError(problem)
        if len(leaf) != LEAVES or len(steps) != 3:
            raise SearchInputError(f"the leaf table has {LEAVES} scores and there are 3 steps")
        if not 0 <= birds < 256 or any(birds >> (2 * i) & 3 == 3 for i in range(4)):
            raise SearchInputError("each bird's state is 0 (open), 1 (won its trick) or 2 (beaten in it)")
        if not 0 <= valat < 4:
            raise SearchInputError("the Valat state has two bits: the declarer's and the defender's")
        for i in range(LEAVES):
            self.leaf[i] = leaf[i]
        for i in range(3):
            self.state.steps[i] = min(max(steps[i], -1), 1000)
        self.state.hand[0], self.state.hand[1] = forehand, dealer
        self.state.leader, self.state.declarer, self.state.led = leader, declarer, led
        self.state.thirds, self.state.birds, self.state.valat = 0, birds, valat
        table_new_age(&self.tt)
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
            maximizing = side_to_move(parent.leader, parent.led) == parent.declarer
            n = order_moves(parent.hand, parent.leader, parent.led, NO_CARD, BIRD_CARDS, moves, maximizing)
            keeps = False
            for i in range(n):
                card = moves[i]
                self.state = parent
                play(&self.state, card)
                with nogil:
                    keeps = keeps_target(maximizing, score_search(&self.state, keeping_beta(maximizing, value)), value)
                parent.nodes = self.state.nodes
                if keeps:
                    break
            if not keeps:
                raise RuntimeError("no card keeps the score: the search is inconsistent")
            line.append(card)
        return value, line

    @property
    def nodes(self):
        return self.state.nodes

    @property
    def stats(self):
        """Counters since the solver was made: nodes searched and table use
        (the keys of :attr:`Solver.stats <kosolve.engine._search.Solver.stats>`)."""
        return {"nodes": self.state.nodes, **table_stats(&self.tt)}


# Test-only views of the C pieces.

def _py_bird_state(int birds, int card, int seat, int winner, int cards):
    return bird_state(birds, card, seat, winner, cards)


def _py_leaf_score(int thirds, steps, int birds, int valat, leaf):
    """The leaf a finished hand with these states looks up."""
    cdef ScoreState s
    cdef int table[LEAVES]
    for i in range(LEAVES):
        table[i] = leaf[i]
    s.thirds, s.birds, s.valat, s.leaf = thirds, birds, valat, table
    for i in range(3):
        s.steps[i] = steps[i]
    return leaf_score(&s)
