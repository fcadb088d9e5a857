# cython: language_level=3
"""The double-dummy search of kosolve.

The value of a position is the declarer's *future* thirds: what he takes in
the trick on the table and in all tricks still to come, with best play by
both sides.  :class:`Solver` owns the transposition table and is the Python
face; everything under it runs without the GIL.
"""

from libc.stdint cimport int8_t, uint64_t

from kosolve._bits cimport (
    NO_CARD, TAROCKS, Hand, bit, card_value, highest_card, legal_replies, lowest_card, pile_thirds, popcount, reply_wins,
    trick_thirds,
)
from kosolve._movegen cimport MAX_MOVES, order_leads, order_replies, representatives
from kosolve._tt cimport (
    BUCKET_ENTRIES, TTEntry, TTKey, TranspositionTable, tt_allocate, tt_clear, tt_key, tt_move, tt_probe, tt_release, tt_store,
)

DEFAULT_TT_MB = 64.0


cdef inline int sure_thirds(Hand own, Hand other) noexcept nogil:
    """Thirds that ``own`` takes whatever happens: each of its tarocks above
    every tarock of ``other`` wins the trick it is played to, together with
    a card of ``other`` worth at least 1."""
    cdef Hand trumps = other & TAROCKS
    cdef Hand top = own & TAROCKS
    if trumps:
        top &= ~(bit(highest_card(trumps) + 1) - 1)
    return pile_thirds(top) + popcount(top)


cdef inline Hand above(Hand cards, Hand other) noexcept nogil:
    """The cards above every card of ``other`` (all of them if it is empty)."""
    return cards & ~(bit(highest_card(other) + 1) - 1) if other else cards


cdef inline int cashing_thirds(Hand own, Hand other) noexcept nogil:
    """Thirds the side on lead takes for sure by cashing.  If it holds at
    least as many unbeatable tarocks as the opponent holds tarocks, leading
    them draws the opponent's last tarock (a tarock lead must be followed by
    a tarock); then every tarock of its own and every suit card above the
    opponent's cards of that suit wins when led, and it keeps the lead
    throughout.  Otherwise only the unbeatable tarocks are sure."""
    cdef Hand other_trumps = other & TAROCKS
    cdef Hand winners = above(own & TAROCKS, other_trumps)
    cdef int suit
    cdef Hand suit_cards
    if popcount(winners) >= popcount(other_trumps):
        winners = own & TAROCKS
        for suit in range(4):
            suit_cards = (<Hand>0xFF) << (8 * suit)
            winners |= above(own & suit_cards, other & suit_cards)
    return pile_thirds(winners) + popcount(winners)


cdef inline int last_trick(SearchState* s) noexcept nogil:
    """The last trick needs no search: each side has one card left."""
    cdef int led = lowest_card(s.hand[s.leader])
    cdef int reply = lowest_card(s.hand[1 - s.leader])
    cdef int winner = 1 - s.leader if reply_wins(led, reply) else s.leader
    s.nodes += 2
    return trick_thirds(led, reply) if winner == s.declarer else 0


cdef int search_lead(SearchState* s, int beta) noexcept nogil:
    cdef Hand forehand = s.hand[0]
    cdef Hand in_play = forehand | s.hand[1]
    cdef int bound, tt_move_card = NO_CARD, n, i, card, value
    cdef int leader = s.leader
    cdef bint maximizing = leader == s.declarer
    cdef int best = -1 if maximizing else 1 << 14
    cdef int best_move = NO_CARD
    cdef int8_t moves[MAX_MOVES]
    cdef TTKey key
    cdef TTEntry* entry
    if not in_play:
        return 0
    if popcount(forehand) == 1:
        return last_trick(s)
    if maximizing:
        bound = pile_thirds(in_play) - sure_thirds(s.hand[1 - leader], s.hand[leader])
    else:
        bound = pile_thirds(in_play) - cashing_thirds(s.hand[leader], s.hand[1 - leader])
    if beta > bound:
        return bound
    if maximizing:
        bound = cashing_thirds(s.hand[leader], s.hand[1 - leader])
    else:
        bound = sure_thirds(s.hand[1 - leader], s.hand[leader])
    if beta <= bound:
        return bound
    tt_key(&key, forehand, s.hand[1], leader, s.declarer)
    entry = tt_probe(s.tt, &key)
    if entry != NULL:
        if entry.lower >= beta:
            return entry.lower
        if entry.upper < beta:
            return entry.upper
        tt_move_card = tt_move(&key, entry)
    n = order_leads(s.hand[leader], s.hand[1 - leader], tt_move_card, moves)
    for i in range(n):
        card = moves[i]
        s.hand[leader] ^= bit(card)
        s.led = card
        s.nodes += 1
        value = search_reply(s, beta)
        s.hand[leader] ^= bit(card)
        s.led = NO_CARD
        if maximizing:
            if value > best:
                best = value
                best_move = card
                if best >= beta:
                    break
        elif value < best:
            best = value
            best_move = card
            if best < beta:
                break
    tt_store(s.tt, &key, best, beta, best_move)
    return best


cdef int search_reply(SearchState* s, int beta) noexcept nogil:
    cdef int leader = s.leader
    cdef int follower = 1 - leader
    cdef int led = s.led
    cdef bint maximizing = follower == s.declarer
    cdef int best = -1 if maximizing else 1 << 14
    cdef int n, i, card, value, gain, winner
    cdef int8_t moves[MAX_MOVES]
    n = order_replies(legal_replies(s.hand[follower], led), s.hand[0] | s.hand[1] | bit(led), led, moves)
    for i in range(n):
        card = moves[i]
        winner = follower if reply_wins(led, card) else leader
        gain = trick_thirds(led, card) if winner == s.declarer else 0
        s.hand[follower] ^= bit(card)
        s.leader = winner
        s.led = NO_CARD
        s.nodes += 1
        value = gain + search_lead(s, beta - gain)
        s.hand[follower] ^= bit(card)
        s.leader = leader
        s.led = led
        if maximizing:
            if value > best:
                best = value
                if best >= beta:
                    break
        elif value < best:
            best = value
            if best < beta:
                break
    return best


cdef int search(SearchState* s, int beta) noexcept nogil:
    """Fail-soft test of ``value >= beta``: a result ``>= beta`` is a lower
    bound on the value, a result ``< beta`` an upper bound."""
    if s.led == NO_CARD:
        return search_lead(s, beta)
    return search_reply(s, beta)


cdef int thirds_in_play(SearchState* s) noexcept nogil:
    cdef Hand cards = s.hand[0] | s.hand[1]
    if s.led != NO_CARD:
        cards |= bit(s.led)
    return pile_thirds(cards)


cdef int exact_value(SearchState* s) noexcept nogil:
    """The value by bisection of [0, thirds in play]: with no guess to start
    from, halving the interval takes far fewer null-window searches than
    MTD(f)'s steps of a few thirds."""
    cdef int lower = 0
    cdef int upper = thirds_in_play(s)
    cdef int beta, value
    while lower < upper:
        beta = (lower + upper + 1) // 2
        value = search(s, beta)
        if value >= beta:
            lower = value
        else:
            upper = value
    return lower


cdef int mtdf_value(SearchState* s, int guess, int lower, int upper) noexcept nogil:
    """MTD(f) from a good guess, on a value known to lie in [lower, upper]."""
    cdef int value = min(max(guess, lower), upper)
    cdef int beta
    while lower < upper:
        beta = value + 1 if value == lower else value
        value = search(s, beta)
        if value >= beta:
            lower = value
        else:
            upper = value
    return lower


cdef int play(SearchState* s, int card) noexcept nogil:
    """Play ``card`` for the side to move; return the thirds it gave the
    declarer (a completed trick's worth, or 0)."""
    cdef int leader = s.leader
    cdef int led = s.led
    cdef int winner
    if led == NO_CARD:
        s.hand[leader] ^= bit(card)
        s.led = card
        return 0
    s.hand[1 - leader] ^= bit(card)
    winner = 1 - leader if reply_wins(led, card) else leader
    s.leader = winner
    s.led = NO_CARD
    return trick_thirds(led, card) if winner == s.declarer else 0


cdef inline int to_move(SearchState* s) noexcept nogil:
    return s.leader if s.led == NO_CARD else 1 - s.leader


cdef inline Hand legal_cards(SearchState* s) noexcept nogil:
    if s.led == NO_CARD:
        return s.hand[s.leader]
    return legal_replies(s.hand[1 - s.leader], s.led)


cdef inline Hand cards_in_play(SearchState* s) noexcept nogil:
    return s.hand[0] | s.hand[1] | (bit(s.led) if s.led != NO_CARD else 0)


cdef int ordered_moves(SearchState* s, int8_t* moves) noexcept nogil:
    """The representatives of the legal cards, in search order."""
    cdef TTKey key
    if s.led != NO_CARD:
        return order_replies(legal_cards(s), cards_in_play(s), s.led, moves)
    tt_key(&key, s.hand[0], s.hand[1], s.leader, s.declarer)
    return order_leads(s.hand[s.leader], s.hand[1 - s.leader], tt_move(&key, tt_probe(s.tt, &key)), moves)


def _check_position(Hand forehand, Hand dealer, int leader, int declarer, int led):
    if (forehand | dealer) >> 54 or forehand & dealer:
        raise ValueError("the hands must be disjoint sets of the 54 cards")
    if leader not in (0, 1) or declarer not in (0, 1):
        raise ValueError("leader and declarer are seats: 0 (forehand) or 1 (dealer)")
    cdef int lead_count = bin(forehand if leader == 0 else dealer).count("1")
    cdef int follow_count = bin(dealer if leader == 0 else forehand).count("1")
    if led == NO_CARD:
        if lead_count != follow_count:
            raise ValueError("at a trick boundary both hands must hold as many cards")
    elif not 0 <= led < 54 or (forehand | dealer) >> led & 1:
        raise ValueError("the led card must be a card that neither hand holds")
    elif lead_count + 1 != follow_count:
        raise ValueError("in mid-trick the leader must hold one card fewer than the follower")


cdef class Solver:
    """A double-dummy solver with its own transposition table.

    Positions are given as masks: ``forehand`` and ``dealer`` are the cards
    each seat holds, ``leader`` the seat that leads the current trick,
    ``declarer`` the seat whose thirds are counted, and ``led`` the card on
    the table (-1 at a trick boundary).  Values are the declarer's *future*
    thirds.  The table is kept between calls: it never changes an answer,
    only the time to find it.

    >>> from kosolve.cards import parse_hand
    >>> solver = Solver(tt_mb=1)
    >>> solver.value(parse_hand(["HK", "H4"]), parse_hand(["HQ", "I"]), 0, 0)
    23
    """

    cdef TranspositionTable tt
    cdef SearchState state
    cdef readonly double tt_mb

    def __cinit__(self, double tt_mb=DEFAULT_TT_MB):
        if not tt_mb > 0:
            raise ValueError("the table size must be positive")
        tt_allocate(&self.tt, <size_t>(tt_mb * 1024 * 1024))
        self.tt_mb = tt_mb
        self.state.tt = &self.tt
        self.state.nodes = 0

    def __dealloc__(self):
        tt_release(&self.tt)

    cdef void _set(self, Hand forehand, Hand dealer, int leader, int declarer, int led) except *:
        _check_position(forehand, dealer, leader, declarer, led)
        self.state.hand[0] = forehand
        self.state.hand[1] = dealer
        self.state.leader = leader
        self.state.declarer = declarer
        self.state.led = led
        self.tt.age = <unsigned char>(self.tt.age + 1)

    def clear(self):
        """Empty the transposition table."""
        tt_clear(&self.tt)

    def value(self, Hand forehand, Hand dealer, int leader, int declarer, int led=NO_CARD):
        """The declarer's future thirds with best play by both sides."""
        cdef int result
        self._set(forehand, dealer, leader, declarer, led)
        with nogil:
            result = exact_value(&self.state)
        return result

    def move_values(self, Hand forehand, Hand dealer, int leader, int declarer, int led=NO_CARD):
        """``[(card, value), ...]`` for every legal card of the side to move,
        lowest card first; ``value`` is the declarer's future thirds after
        that card, including what it wins now."""
        cdef int8_t moves[MAX_MOVES]
        cdef int values[64]
        cdef int n, i, card, gain, best
        cdef bint maximizing
        cdef SearchState root, child
        cdef Hand legal, in_play
        self._set(forehand, dealer, leader, declarer, led)
        root = self.state
        in_play = cards_in_play(&root)
        legal = legal_cards(&root)
        with nogil:
            # The first card (the likely best) is valued by bisection; the
            # others by MTD(f) from the best value so far, which most of them
            # only match or fall short of.
            maximizing = to_move(&root) == root.declarer
            n = ordered_moves(&root, moves)
            for i in range(n):
                card = moves[i]
                child = root
                gain = play(&child, card)
                if i == 0:
                    values[card] = gain + exact_value(&child)
                    best = values[card]
                else:
                    values[card] = gain + mtdf_value(&child, best - gain, 0, thirds_in_play(&child))
                    best = max(best, values[card]) if maximizing else min(best, values[card])
                root.nodes = child.nodes
        self.state.nodes = root.nodes
        result = []
        rep = previous = NO_CARD
        for card in range(54):
            if legal >> card & 1:
                if not _same_group(previous, card, in_play):
                    rep = card
                result.append((card, values[rep]))
                previous = card
        return result

    def line(self, Hand forehand, Hand dealer, int leader, int declarer, int led=NO_CARD):
        """An optimal line of play to the end of the hand, as a list of cards."""
        cdef int8_t moves[MAX_MOVES]
        cdef int n, i, value, gain, target, card
        cdef bint maximizing, found
        cdef SearchState parent, child
        self._set(forehand, dealer, leader, declarer, led)
        result = []
        with nogil:
            value = exact_value(&self.state)
        while self.state.hand[0] | self.state.hand[1]:
            parent = self.state
            maximizing = to_move(&parent) == parent.declarer
            found = False
            with nogil:
                n = ordered_moves(&parent, moves)
                for i in range(n):
                    child = parent
                    card = moves[i]
                    gain = play(&child, card)
                    target = value - gain
                    if maximizing:
                        found = search(&child, target) >= target
                    else:
                        found = search(&child, target + 1) <= target
                    parent.nodes = child.nodes
                    if found:
                        value = target
                        break
            if not found:
                raise RuntimeError("no move keeps the value: the search is inconsistent")
            self.state = child
            result.append(card)
        return result

    @property
    def stats(self):
        """Counters since the solver was made: nodes searched and table use."""
        return {
            "nodes": self.state.nodes,
            "tt_probes": self.tt.probes,
            "tt_hits": self.tt.hits,
            "tt_stores": self.tt.stores,
            "tt_overwrites": self.tt.overwrites,
            "tt_entries": (self.tt.mask + 1) * BUCKET_ENTRIES,
            "tt_bytes": (self.tt.mask + 1) * BUCKET_ENTRIES * sizeof(TTEntry),
        }


def _same_group(int previous, int card, Hand in_play):
    """Whether ``card`` is equivalent to ``previous``, the next lower legal card."""
    cdef int8_t moves[MAX_MOVES]
    if previous == NO_CARD:
        return False
    return representatives(bit(previous) | bit(card), in_play, moves) == 1


# Test-only views of the C pieces.

def _py_card_value(int card):
    return card_value(card)


def _py_pile_thirds(Hand cards):
    return pile_thirds(cards)


def _py_reply_wins(int led, int reply):
    return reply_wins(led, reply)


def _py_legal_replies(Hand hand, int led):
    return legal_replies(hand, led)


def _py_representatives(Hand candidates, Hand in_play):
    cdef int8_t moves[MAX_MOVES]
    cdef int n = representatives(candidates, in_play, moves)
    return [moves[i] for i in range(n)]


def _py_order_leads(Hand own, Hand opponent, int first=NO_CARD):
    cdef int8_t moves[MAX_MOVES]
    cdef int n = order_leads(own, opponent, first, moves)
    return [moves[i] for i in range(n)]


def _py_order_replies(Hand legal, Hand in_play, int led):
    cdef int8_t moves[MAX_MOVES]
    cdef int n = order_replies(legal, in_play, led, moves)
    return [moves[i] for i in range(n)]
