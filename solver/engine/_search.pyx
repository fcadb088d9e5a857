# cython: language_level=3
"""The double-dummy search of kosolve.

The value of a position is the declarer's *future* thirds: what he takes in
the trick on the table and in all tricks still to come, with best play by
both sides.  :class:`Solver` owns the transposition table and is the Python
face; everything under it runs without the GIL.
"""

from cpython.pycapsule cimport PyCapsule_New
from libc.stdint cimport int8_t, uint64_t

from kosolve.engine._bits cimport (
    MIDDLE_TAROCKS, NO_CARD, PAGAT, SUITS, TAROCKS, Hand, above, bit, legal_replies, lowest_card, pile_thirds,
    play_card, popcount, reply_wins, side_to_move, trick_thirds,
)
from kosolve.engine._alphabeta cimport CUTOFF, INFINITE, NO_GAIN, fold_value, keeping_beta, keeps_target
from kosolve.engine._movegen cimport (
    MAX_MOVES, lead_candidates, order_candidates, order_leads, order_moves, reply_candidates, representatives,
    root_dominators, settled_leads, settled_replies,
)
from kosolve.engine._lookalike cimport (
    LOOKALIKE_FROM_CARDS, LOOKALIKE_TO_CARDS, LookAlikeEntry, LookAlikeTable, lookalike_allocate, lookalike_bound,
    lookalike_clear, lookalike_key, lookalike_release, lookalike_slot, lookalike_store,
)
from kosolve.engine._position cimport position_problem
from kosolve.engine._table cimport (
    Slot, Table, table_add_counts, table_allocate, table_clear, table_new_age, table_release, table_stats, table_view,
)
from kosolve.engine._threads cimport MAX_THREADS, fold_shared, load_int, run_threads, store_int, take
from kosolve.engine._tt cimport (
    TT_KEY_WORDS, TTKey, pattern_of, tt_holder, tt_key, tt_key_without, tt_move, tt_pattern, tt_prefetch, tt_probe,
    tt_store,
)

from kosolve.engine.errors import SearchInputError

DEFAULT_TT_MB = 8.0
"""The default table: a whole deal's search stores a few hundred thousand
positions, and a table that stays in the CPU's cache beats a larger one
that misses it (docs/benchmarks-history.md, "Waiting on memory")."""
GOAL_TT_MB = 2.0
"""The goal searches' own table, at most this size: its entries serve one
goal query only, and a table that fits a core's second-level cache beats
a larger one that misses it (docs/benchmarks-history.md, "Goal tables")."""
VALAT = GOAL_VALAT
BIRD = GOAL_BIRD
MAX_SEARCH_THREADS = MAX_THREADS
"""The most threads a :class:`Solver` runs."""

cdef enum:
    GOAL_OPEN = 0
    GOAL_MET = 1
    GOAL_BROKEN = 2


cdef inline int sure_thirds(Hand own, Hand other) noexcept nogil:
    """Thirds that ``own`` takes whatever happens: each of its tarocks above
    every tarock of ``other`` wins the trick it is played to, together with
    a card of ``other`` worth at least 1."""
    cdef Hand top = above(own & TAROCKS, other & TAROCKS)
    return pile_thirds(top) + popcount(top)


cdef inline int cashing_thirds(Hand own, Hand other) noexcept nogil:
    """Thirds the side on lead takes for sure by cashing.  If it holds at
    least as many unbeatable tarocks as the opponent holds tarocks, leading
    them draws the opponent's last tarock (a tarock lead must be followed by
    a tarock); then every tarock of its own and every suit card above the
    opponent's cards of that suit wins when led, and it keeps the lead
    throughout.  Otherwise only the unbeatable tarocks are sure."""
    cdef Hand other_trumps = other & TAROCKS
    cdef Hand winners = above(own & TAROCKS, other_trumps)
    cdef Hand beaten
    if popcount(winners) >= popcount(other_trumps):
        # Each suit byte filled downwards from the opponent's highest card:
        # the cards that card beats, or it itself.
        beaten = other & SUITS
        beaten |= (beaten >> 1) & <Hand>0x7F7F7F7F
        beaten |= (beaten >> 2) & <Hand>0x3F3F3F3F
        beaten |= (beaten >> 4) & <Hand>0x0F0F0F0F
        winners = own & (TAROCKS | (SUITS & ~beaten))
    return pile_thirds(winners) + popcount(winners)


cdef inline int last_trick(SearchState* s) noexcept nogil:
    """The last trick needs no search: each side has one card left."""
    cdef int led = lowest_card(s.hand[s.leader])
    cdef int reply = lowest_card(s.hand[1 - s.leader])
    cdef int winner = 1 - s.leader if reply_wins(led, reply) else s.leader
    s.nodes += 2
    return trick_thirds(led, reply) if winner == s.declarer else 0


cdef inline int two_tricks(SearchState* s, int leader, Hand lead_hand, Hand follow_hand, int led,
                           int reply) noexcept nogil:
    """The declarer's thirds from the trick of ``led`` and ``reply`` and the
    last trick after it, in which each side plays the one card it has left."""
    cdef Hand lead_rest = lead_hand & ~bit(led)
    cdef Hand follow_rest = follow_hand & ~bit(reply)
    cdef int winner = 1 - leader if reply_wins(led, reply) else leader
    cdef int thirds = trick_thirds(led, reply) if winner == s.declarer else 0
    cdef int last_led = lowest_card(lead_rest if winner == leader else follow_rest)
    cdef int last_reply = lowest_card(follow_rest if winner == leader else lead_rest)
    if (1 - winner if reply_wins(last_led, last_reply) else winner) == s.declarer:
        thirds += trick_thirds(last_led, last_reply)
    return thirds


cdef int last_tricks(SearchState* s, int beta) noexcept nogil:
    """The last two tricks played out: at most two leads of two replies
    each, cheaper than searching them with table keys, probes and ordering
    (docs/benchmarks-history.md, "Speed II").  Fail-soft like the search:
    each side stops as soon as the null window is decided.  A reply counts
    three nodes, itself and the last trick's two cards."""
    cdef int leader = s.leader
    cdef Hand lead_hand = s.hand[leader]
    cdef Hand follow_hand = s.hand[1 - leader]
    cdef bint lead_max = leader == s.declarer
    cdef int best = -INFINITE if lead_max else INFINITE
    cdef int reply_best, value, led, reply
    cdef Hand leads = lead_hand, replies
    while leads:
        led = lowest_card(leads)
        leads &= leads - 1
        replies = legal_replies(follow_hand, led)
        reply_best = INFINITE if lead_max else -INFINITE
        s.nodes += 1
        while replies:
            reply = lowest_card(replies)
            replies &= replies - 1
            s.nodes += 3
            value = two_tricks(s, leader, lead_hand, follow_hand, led, reply)
            if fold_value(not lead_max, value, &reply_best, beta) == CUTOFF:
                break
        if fold_value(lead_max, reply_best, &best, beta) == CUTOFF:
            break
    return best


cdef inline Hand goal_alone(SearchState* s) noexcept nogil:
    """The cards that must not be grouped with their equals: a goal's bird."""
    return bit(s.goal_card) if s.goal == GOAL_BIRD else 0


cdef inline int goal_code(SearchState* s) noexcept nogil:
    """The goal of a search as one number: its kind, bird, trick and
    whether thirds count beside it."""
    return ((s.goal * 64 + s.goal_card + 1) * 32 + s.goal_cards) * 2 + s.goal_points


cdef inline int goal_detail(SearchState* s, Hand in_play) noexcept nogil:
    """Where a goal's bird stands among the 1-point tarocks in play (0 to 2):
    the table pattern counts those tarocks but does not say which is the bird."""
    if s.goal != GOAL_BIRD or s.goal_card == PAGAT:
        return 0
    return popcount(in_play & MIDDLE_TAROCKS & (bit(s.goal_card) - 1))


cdef inline int trick_goal(SearchState* s, int led, int reply, int winner, int cards) noexcept nogil:
    """What a completed trick does to the goal: GOAL_OPEN, GOAL_MET or
    GOAL_BROKEN.  ``cards`` is how many cards each hand held when it began."""
    if s.goal == GOAL_VALAT:
        return GOAL_OPEN if winner == s.declarer else GOAL_BROKEN
    if s.goal == GOAL_BIRD and (led == s.goal_card or reply == s.goal_card):
        return GOAL_MET if cards == s.goal_cards and winner == s.declarer else GOAL_BROKEN
    return GOAL_OPEN


cdef int search_lead(SearchState* s, int beta, TTKey* key) noexcept nogil:
    """The search at a trick boundary.  ``key`` is the position's table key
    when the caller has worked it out (and started loading its bucket), else
    NULL."""
    cdef Hand forehand = s.hand[0]
    cdef Hand in_play = forehand | s.hand[1]
    cdef int bound, tt_move_card = NO_CARD, n, i, step = NO_GAIN
    cdef int leader = s.leader
    cdef bint maximizing = leader == s.declarer
    cdef int best = -INFINITE if maximizing else INFINITE
    cdef int best_move = NO_CARD
    cdef int8_t moves[MAX_MOVES]
    cdef TTKey own_key
    cdef Slot* entry
    cdef Table* table = s.tt
    cdef LookAlikeEntry* look = NULL
    cdef uint64_t look_key = 0, pattern = 0
    cdef Hand own, other, alone
    cdef int cards
    if not in_play:
        return 0
    if s.goal != GOAL_NONE:
        if s.goal == GOAL_BIRD and popcount(forehand) < s.goal_cards:
            return FAILED  # the bird's trick is past and the bird was not played in it
        table = s.goal_tt
    elif popcount(forehand) <= 2:
        return last_tricks(s, beta) if popcount(forehand) == 2 else last_trick(s)
    # The bucket loads while the bounds are worked out.
    if key == NULL:
        key = &own_key
        tt_key(key, forehand, s.hand[1], leader, s.declarer, goal_detail(s, in_play))
        tt_prefetch(table, key)
    # A goal only lowers the value, so upper bounds hold for goal searches too.
    if maximizing:
        bound = pile_thirds(in_play) - sure_thirds(s.hand[1 - leader], s.hand[leader])
    else:
        bound = pile_thirds(in_play) - cashing_thirds(s.hand[leader], s.hand[1 - leader])
    if beta > bound:
        return bound
    if s.goal == GOAL_NONE:
        if maximizing:
            bound = cashing_thirds(s.hand[leader], s.hand[1 - leader])
        else:
            bound = sure_thirds(s.hand[1 - leader], s.hand[leader])
        if beta <= bound:
            return bound
    entry = tt_probe(table, key)
    if entry != NULL:
        if entry.lower >= beta:
            return entry.lower
        if entry.upper < beta:
            return entry.upper
        tt_move_card = tt_move(key, entry)
    # A look-alike's bound, where the position's own entry leaves the window open.
    cards = popcount(forehand)
    if s.lookalike != NULL and s.goal == GOAL_NONE and LOOKALIKE_FROM_CARDS <= cards <= LOOKALIKE_TO_CARDS:
        pattern = tt_pattern(key)
        look_key = lookalike_key(tt_holder(key), in_play, leader, s.declarer)
        look = lookalike_slot(s.lookalike, look_key)
        if lookalike_bound(look, look_key, pattern, beta, &bound):
            return bound
    # The table's lead is tried before the others are scored: it often
    # decides the node alone.
    if tt_move_card != NO_CARD:
        step = try_lead(s, tt_move_card, beta, maximizing, &best, &best_move)
    if step != CUTOFF:
        own, other, alone = s.hand[leader], s.hand[1 - leader], goal_alone(s)
        n = order_leads(settled_leads(lead_candidates(own, other, alone), own, other, alone), own, other, NO_CARD,
                        moves, maximizing)
        for i in range(n):
            if moves[i] != tt_move_card:
                step = try_lead(s, moves[i], beta, maximizing, &best, &best_move)
                if step == CUTOFF:
                    break
    # Only a cutoff says which lead to try first next time.
    tt_store(table, key, best, beta, best_move if step == CUTOFF else NO_CARD)
    if look != NULL:
        lookalike_store(look, look_key, pattern, best, beta, pile_thirds(in_play))
    return best


cdef inline int try_lead(SearchState* s, int card, int beta, bint maximizing, int* best, int* best_move) noexcept nogil:
    """Search the lead of ``card`` and fold its value into ``best``."""
    cdef int value, step
    s.hand[s.leader] ^= bit(card)
    s.led = card
    s.nodes += 1
    value = search_reply(s, beta)
    s.hand[s.leader] ^= bit(card)
    s.led = NO_CARD
    step = fold_value(maximizing, value, best, beta)
    if step != NO_GAIN:
        best_move[0] = card
    return step


cdef int search_reply(SearchState* s, int beta) noexcept nogil:
    cdef int leader = s.leader
    cdef int follower = 1 - leader
    cdef int led = s.led
    cdef int goal = s.goal
    cdef int cards = popcount(s.hand[follower])
    cdef bint maximizing = follower == s.declarer
    cdef int best = -INFINITE if maximizing else INFINITE
    cdef int n, i, card, value, gain, winner, status
    cdef int8_t moves[MAX_MOVES]
    cdef TTKey keys[64]  # by card
    # The children after a trick that leaves three or more cards a hand
    # probe the table (two are played out).  Their keys are worked out here,
    # all at once and before the replies are put in order, so that their
    # buckets load side by side and while the node still works: the probes'
    # cache misses, not the instructions, bound the search's speed
    # (docs/benchmarks-history.md, "Waiting on memory").
    cdef bint keyed = goal == GOAL_NONE and cards > 3
    cdef Hand legal = legal_replies(s.hand[follower], led)
    cdef Hand candidates = settled_replies(reply_candidates(legal, s.hand[0] | s.hand[1] | bit(led), goal_alone(s)),
                                           legal, s.hand[leader], led, goal_alone(s))
    if keyed:
        child_keys(s, candidates, keys)
    n = order_candidates(candidates, led, moves)
    for i in range(n):
        card = moves[i]
        winner = follower if reply_wins(led, card) else leader
        gain = trick_thirds(led, card) if winner == s.declarer else 0
        s.nodes += 1
        status = trick_goal(s, led, card, winner, cards) if goal != GOAL_NONE else GOAL_OPEN
        if status == GOAL_BROKEN:
            value = FAILED
        elif status == GOAL_MET and not s.goal_points:
            value = gain
        else:
            if status == GOAL_MET:
                s.goal = GOAL_NONE
            s.hand[follower] ^= bit(card)
            s.leader = winner
            s.led = NO_CARD
            value = gain + search_lead(s, beta - gain, &keys[card] if keyed else NULL)
            s.hand[follower] ^= bit(card)
            s.leader = leader
            s.led = led
            s.goal = goal
        if fold_value(maximizing, value, &best, beta) == CUTOFF:
            break
    return best


cdef inline void child_keys(SearchState* s, Hand replies, TTKey* keys) noexcept nogil:
    """The table keys of the positions after each card of ``replies``, by
    card, and start loading their buckets (plain searches only: a goal's
    positions have keys of their own)."""
    cdef uint64_t pattern = pattern_of(s.hand[0] | s.hand[1])
    cdef int card
    while replies:
        card = lowest_card(replies)
        replies &= replies - 1
        tt_key_without(&keys[card], s.hand[0], s.hand[1], pattern, card,
                       1 - s.leader if reply_wins(s.led, card) else s.leader, s.declarer)
        tt_prefetch(s.tt, &keys[card])


cdef int search(SearchState* s, int beta) noexcept nogil:
    """Fail-soft test of ``value >= beta``: a result ``>= beta`` is a lower
    bound on the value, a result ``< beta`` an upper bound."""
    if s.led == NO_CARD:
        return search_lead(s, beta, NULL)
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


cdef int play(SearchState* s, int card, int* status) noexcept nogil:
    """Play ``card`` for the side to move; return the thirds it gave the
    declarer (a completed trick's worth, or 0) and set ``status`` to what it
    did to the goal (GOAL_OPEN, GOAL_MET or GOAL_BROKEN).  A goal met with
    thirds still to count gives way to the plain search."""
    cdef int led = s.led
    cdef int cards = popcount(s.hand[1 - s.leader])
    cdef int winner = play_card(s.hand, &s.leader, &s.led, card)
    status[0] = GOAL_OPEN
    if winner < 0:
        return 0
    if s.goal != GOAL_NONE:
        status[0] = trick_goal(s, led, card, winner, cards)
        if status[0] == GOAL_MET:
            s.goal = GOAL_NONE
    return trick_thirds(led, card) if winner == s.declarer else 0


cdef inline Hand legal_cards(SearchState* s) noexcept nogil:
    if s.led == NO_CARD:
        return s.hand[s.leader]
    return legal_replies(s.hand[1 - s.leader], s.led)


cdef inline Hand cards_in_play(SearchState* s) noexcept nogil:
    return s.hand[0] | s.hand[1] | (bit(s.led) if s.led != NO_CARD else 0)


cdef int ordered_moves(SearchState* s, int8_t* moves) noexcept nogil:
    """The representatives of the legal cards, in search order."""
    cdef TTKey key
    cdef int first = NO_CARD
    if s.led == NO_CARD:
        tt_key(&key, s.hand[0], s.hand[1], s.leader, s.declarer, goal_detail(s, s.hand[0] | s.hand[1]))
        first = tt_move(&key, tt_probe(s.tt if s.goal == GOAL_NONE else s.goal_tt, &key))
    return order_moves(s.hand, s.leader, s.led, first, goal_alone(s), moves,
                       side_to_move(s.leader, s.led) == s.declarer)


cdef int expand(SearchState* root, int8_t* moves, SearchState* children, int* gains, int* statuses) noexcept nogil:
    """The representatives of the legal cards in search order, with the
    position after each, what it gave the declarer and what it did to the
    goal.  Each child counts its own nodes from zero."""
    cdef int n = ordered_moves(root, moves)
    cdef int i
    for i in range(n):
        children[i] = root[0]
        children[i].nodes = 0
        gains[i] = play(&children[i], moves[i], &statuses[i])
    return n


cdef inline void bound_by_dominator(int ruler_value, int gain, bint maximizing, int* lower, int* upper) noexcept nogil:
    """Narrow a root card's interval [lower, upper] (its value less its
    ``gain``) by the value of the card that dominates it (_movegen.pxd,
    "Dominated cards"), ``ruler_value`` with that card's gain: the card is
    worth no more than it to the mover.  A card equal to the best so skips
    the costly proof that it is no better."""
    if maximizing:
        upper[0] = min(upper[0], ruler_value - gain)
    else:
        lower[0] = max(lower[0], ruler_value - gain)


cdef void value_cards(SearchState* root, int n, int8_t* moves, SearchState* children, int* gains,
                      int* values) noexcept nogil:
    """The value of each of the ``n`` children of ``root`` (after the cards
    ``moves``, which gave the declarer ``gains``), into ``values`` by card;
    the children's nodes are added to the root's: the one-thread driver of
    ``move_values`` (the threads' is :meth:`Solver._split`).  The first card
    is bisected; the others are valued by MTD(f) from the best so far, which
    most cards only match or fall short of, within what their dominators
    allow."""
    cdef bint maximizing = side_to_move(root.leader, root.led) == root.declarer
    cdef int8_t dominator[64]
    cdef bint valued[64]
    cdef int i, card, ruler, lower, upper, best = 0
    root_dominators(root.hand, root.leader, root.led, goal_alone(root), dominator)
    for card in range(64):
        valued[card] = False
    for i in range(n):
        card = moves[i]
        if i == 0:
            values[card] = gains[i] + exact_value(&children[i])
            best = values[card]
        else:
            lower, upper = 0, thirds_in_play(&children[i])
            ruler = dominator[card]
            if ruler != NO_CARD and valued[ruler]:
                bound_by_dominator(values[ruler], gains[i], maximizing, &lower, &upper)
            values[card] = gains[i] + mtdf_value(&children[i], best - gains[i], lower, upper)
            best = max(best, values[card]) if maximizing else min(best, values[card])
        valued[card] = True
        root.nodes += children[i].nodes


cdef inline bint keeps_value(SearchState* child, int target, bint maximizing) noexcept nogil:
    """Whether a child is worth ``target``, its parent's value less the
    card's gain: one null-window test."""
    return keeps_target(maximizing, search(child, keeping_beta(maximizing, target)), target)


# Threads for one position.  The root's cards are split between the threads:
# each takes the next card from a shared counter (in the order card_of_turn
# gives) and values it on the card's own SearchState, over the one shared
# table (each thread through a table view of its own, for the counters:
# _table.pxd), and folds the result into a shared best.  A card is bisected
# until some card has a value, then valued by MTD(f) from the best, and the
# threads help bisect the first card while its interval is wide (help_first).  Every value a card gets is exact
# (or, for value(), a bound that shows the card is no better than a value
# found), whatever the others have stored or found, so the answers are the
# same for every thread count; only the nodes, and which card finds the best
# first, depend on the timing.

cdef enum:
    ROOT_MOVE_VALUES = 0    # every card's exact value (move_values)
    ROOT_VALUE = 1          # the best card's value (value, line)
    ROOT_KEEPS = 2          # whether each card keeps a value (keeping_cards)
    THREADS_FROM_CARDS = 20 # below this many cards in play one thread is faster: the threads cost more than the search
    SHARED_WIDTH = 30       # the threads test the first card side by side while its interval is wider (thirds)
    UNVALUED = -INFINITE    # a card's result while no thread has written it


cdef struct RootWork:
    int kind                # ROOT_MOVE_VALUES, ROOT_VALUE or ROOT_KEEPS
    int n                   # the root's cards
    SearchState* children   # the position after each card (each thread searches a copy of its own)
    int* gains              # what each card gave the declarer
    int* results            # each card's value with its gain (ROOT_KEEPS: whether it keeps ``target``)
    bint maximizing         # whether the side to move is the declarer
    int target              # ROOT_KEEPS: the root's value; ROOT_VALUE: a guess at it, -1 for none
    int threads             # the threads splitting the root
    Table* tt               # the shared tables
    Table* goal_tt
    Table* views            # what each thread's table views counted, written when it is done
    Table* goal_views
    LookAlikeTable* lookalike   # the look-alike table the threads share
    uint64_t* nodes         # the nodes each thread searched, likewise
    int next                # the next card to take (shared)
    int best                # the best value so far (shared); ``unknown`` until a card has one
    int unknown             # -INFINITE when maximizing, else INFINITE
    bint bisect             # no guess to start from: cards are bisected until one has a value, and the
                            # threads help with the first card while its interval is wide (help_first)
    int lower               # the first card's value is at least this (shared while bisect) ...
    int upper               # ... and at most this
    int8_t* dominators      # by card index: the index of the card that dominates it, or -1


cdef inline int split_point(RootWork* work, int lower, int upper, int part) noexcept nogil:
    """Where thread ``part`` tests the first card while the threads share
    it: at (part + 1) / (threads + 1) of the interval."""
    return min(lower + ((upper - lower) * (part + 1) + work.threads) // (work.threads + 1), upper)


cdef inline void fold_test(RootWork* work, int value, int beta) noexcept nogil:
    """Narrow the first card's shared interval by a fail-soft result."""
    if value >= beta:
        fold_shared(&work.lower, value, True)
    else:
        fold_shared(&work.upper, value, False)


cdef void help_first(RootWork* work, SearchState* child, int part) noexcept nogil:
    """A thread's share of the first card's bisection before it takes a card
    of its own: while the interval is wide each thread tests its own point
    of it, and every result narrows it for all.  Far from the value a test
    is quick, so splitting them shortens the wait for the first value; near
    it each test is a long proof, and a second beside it mostly wasted: the
    card's owner finishes it alone (docs/benchmarks-history.md, "Both
    cores, second round")."""
    cdef int lower, upper, beta
    while True:
        lower, upper = load_int(&work.lower), load_int(&work.upper)
        if upper - lower <= SHARED_WIDTH:
            return
        beta = split_point(work, lower, upper, part)
        fold_test(work, search(child, beta), beta)


cdef int bisect_while_unknown(RootWork* work, SearchState* child, int* lower, int* upper, bint first,
                              int part) noexcept nogil:
    """Narrow a card's interval [lower, upper] by bisection, the one-thread
    driver's way with no value to start from, until a card has a value or
    the interval closes; return the best value so far (``work.unknown`` if
    none).  The cards the threads take first all start so, and switch to
    MTD(f) from the best as soon as another card has it.  The ``first``
    card's interval is the one the helpers share (help_first)."""
    cdef int best = load_int(&work.best)
    cdef int beta, value
    while best == work.unknown:
        if first:
            lower[0], upper[0] = load_int(&work.lower), load_int(&work.upper)
        if lower[0] >= upper[0]:
            break
        if first and upper[0] - lower[0] > SHARED_WIDTH:
            beta = split_point(work, lower[0], upper[0], part)
        else:
            beta = (lower[0] + upper[0] + 1) // 2
        value = search(child, beta)
        if first:
            fold_test(work, value, beta)
        elif value >= beta:
            lower[0] = value
        else:
            upper[0] = value
        best = load_int(&work.best)
    if first:
        lower[0], upper[0] = load_int(&work.lower), load_int(&work.upper)
    return best


cdef inline int better_value(SearchState* child, int best, bint known, int guess, bint maximizing, int lower,
                             int upper) noexcept nogil:
    """A root card's value (without its gain; ``best`` is the best so far
    less the gain) if it is better than ``best``, else a bound that shows it
    is not (value's root split), the value known to lie in [lower, upper].
    While no card has a value (``known``) a card is valued by MTD(f) from
    ``guess``, the caller's guess at the root's value less the gain."""
    cdef int bound
    if lower >= upper:
        return lower
    if not known:
        return mtdf_value(child, guess, lower, upper)
    if maximizing:
        if upper <= best:
            return upper
        if lower > best:
            return mtdf_value(child, lower, lower, upper)
        bound = search(child, best + 1)
        if bound <= best:
            return bound
        return mtdf_value(child, bound, bound, upper)
    if lower >= best:
        return lower
    if upper < best:
        return mtdf_value(child, upper, lower, upper)
    bound = search(child, best)
    if bound >= best:
        return bound
    return mtdf_value(child, bound, lower, bound)


cdef inline void bound_by_ruler(RootWork* work, int i, int gain, int* lower, int* upper) noexcept nogil:
    """Narrow card ``i``'s interval by its dominator's result, once a
    thread has written it (bound_by_dominator)."""
    cdef int ruler = work.dominators[i]
    cdef int ruler_value
    if ruler < 0:
        return
    ruler_value = load_int(&work.results[ruler])
    if ruler_value != UNVALUED:
        bound_by_dominator(ruler_value, gain, work.maximizing, lower, upper)


cdef inline int card_of_turn(RootWork* work, int turn) noexcept nogil:
    """The card the ``turn``-th take from the shared counter gets.  Valuing
    every card, the cards after the first go from the last in the order
    back: the second card is usually worth the first one's value and goes
    through the positions the first one's search is storing, so it is
    cheap once that has finished and costly beside it, and a thread that
    takes a card while the first is still open does better at the other
    end of the order.  For the best value the order stands: a good card
    found early lets the others be refuted by one test each
    (docs/benchmarks-history.md, "The order of the cards the threads
    take")."""
    if work.kind != ROOT_MOVE_VALUES or turn == 0 or turn >= work.n:
        return turn
    return work.n - turn


cdef void root_part(void* shared, int part) noexcept nogil:
    """One thread's part of a root split: cards from the shared counter
    until none is left.  Whatever a thread writes at every node (its
    SearchState, its table counters) lives on its own stack, apart from the
    other threads' cache lines, and is handed back once, at the end."""
    cdef RootWork* work = <RootWork*>shared
    cdef Table tt = table_view(work.tt)
    cdef Table goal_tt = table_view(work.goal_tt)
    cdef SearchState child
    cdef uint64_t nodes = 0
    cdef int i, best, value, gain, lower, upper
    if part > 0 and work.bisect:
        child = work.children[0]
        child.tt, child.goal_tt, child.lookalike = &tt, &goal_tt, work.lookalike
        help_first(work, &child, part)
        nodes += child.nodes
    while True:
        i = card_of_turn(work, take(&work.next))
        if i >= work.n:
            break
        child = work.children[i]
        child.tt, child.goal_tt, child.lookalike = &tt, &goal_tt, work.lookalike
        gain = work.gains[i]
        if work.kind == ROOT_KEEPS:
            work.results[i] = keeps_value(&child, work.target - gain, work.maximizing)
        else:
            lower, upper = 0, thirds_in_play(&child)
            bound_by_ruler(work, i, gain, &lower, &upper)
            best = load_int(&work.best)
            if work.bisect:
                best = bisect_while_unknown(work, &child, &lower, &upper, i == 0, part)
                bound_by_ruler(work, i, gain, &lower, &upper)
            if work.kind == ROOT_MOVE_VALUES:
                value = gain + mtdf_value(&child, best - gain, lower, upper)
            else:
                value = gain + better_value(&child, best - gain, best != work.unknown, work.target - gain,
                                            work.maximizing, lower, upper)
            store_int(&work.results[i], value)
            fold_shared(&work.best, value, work.maximizing)
        nodes += child.nodes
    work.views[part], work.goal_views[part], work.nodes[part] = tt, goal_tt, nodes


cdef class Solver:
    """A double-dummy solver with its own transposition table.

    Positions are given as masks: ``forehand`` and ``dealer`` are the cards
    each seat holds, ``leader`` the seat that leads the current trick,
    ``declarer`` the seat whose thirds are counted, and ``led`` the card on
    the table (-1 at a trick boundary).  Values are the declarer's *future*
    thirds.  The table is kept between calls: it never changes an answer,
    only the time to find it.

    >>> from kosolve.model.cards import parse_hand
    >>> solver = Solver(tt_mb=1)
    >>> solver.value(parse_hand(["HK", "H4"]), parse_hand(["HQ", "I"]), 0, 0)
    23
    """

    cdef Table tt
    cdef Table goal_tt
    cdef LookAlikeTable lookalike   # bounds for look-alike positions, which the threads share
    cdef SearchState state          # the query's; each query counts its nodes from zero
    cdef uint64_t earlier_nodes     # the nodes of the queries before it
    cdef readonly double tt_mb
    cdef readonly double goal_tt_mb
    cdef int _threads
    cdef int last_goal              # the goal the goal table's entries are for (goal_code), or -1
    # The fewest cards in play (both hands and the card on the table) for
    # which the threads split the root; below it one thread searches alone,
    # since starting threads would cost more than they save.  The tests
    # lower it to split even the smallest endings.
    cdef public int threads_from_cards

    def __cinit__(self, double tt_mb=DEFAULT_TT_MB, goal_tt_mb=None, int threads=1):
        self.threads = threads
        self.threads_from_cards = THREADS_FROM_CARDS
        self.goal_tt_mb = min(tt_mb, GOAL_TT_MB) if goal_tt_mb is None else goal_tt_mb
        table_allocate(&self.tt, tt_mb, TT_KEY_WORDS, False)
        table_allocate(&self.goal_tt, self.goal_tt_mb, TT_KEY_WORDS, True)
        self.last_goal = -1
        lookalike_allocate(&self.lookalike)
        self.tt_mb = tt_mb

    def __dealloc__(self):
        table_release(&self.tt)
        table_release(&self.goal_tt)
        lookalike_release(&self.lookalike)

    cdef void _set(self, Hand forehand, Hand dealer, int leader, int declarer, int led) except *:
        problem = position_problem(forehand, dealer, leader, declarer, led)
        if problem is not None:
            raise SearchInputError(problem)
        self.earlier_nodes += self.state.nodes
        init_search_state(&self.state, forehand, dealer, leader, led, declarer, &self.tt, &self.goal_tt)
        self.state.lookalike = &self.lookalike
        table_new_age(&self.tt)

    cdef int _set_goal(self, Hand forehand, Hand dealer, int leader, int owner, int led, int goal, int bird,
                       int trick, int need) except -2:
        """Set up a goal query; return the null-window bound to test, or -1
        when the goal is out of reach before any search (the owner does not
        hold the bird, or its trick is past)."""
        cdef int cards, code
        if goal not in (GOAL_VALAT, GOAL_BIRD):
            raise SearchInputError(f"unknown goal {goal}")
        self._set(forehand, dealer, leader, owner, led)
        if goal == GOAL_BIRD:
            if not 32 <= bird <= 35 or not 13 <= trick <= 16:
                raise SearchInputError("a bird goal names I, II, III or IV and its trick, 13 to 16")
            set_search_goal(&self.state, GOAL_BIRD, bird, 17 - trick, need > 0)
        else:
            set_search_goal(&self.state, GOAL_VALAT, NO_CARD, 0, need > 0)
        # The goal table's keys do not name the goal: its entries serve the
        # queries of one goal (its bird, trick and whether thirds count),
        # whatever their positions and targets, and no other.
        code = goal_code(&self.state)
        if code != self.last_goal:
            table_new_age(&self.goal_tt)
            self.last_goal = code
        if goal == GOAL_BIRD:
            cards = popcount(self.state.hand[1 - leader])
            if not (self.state.hand[owner] >> bird & 1 or (led == bird and leader == owner)):
                return -1
            if cards < 17 - trick:
                return -1
        return max(need, 0)

    @property
    def threads(self):
        """The threads a search of a large position uses (1 to MAX_THREADS):
        the answers are the same for every number, the nodes are not."""
        return self._threads

    @threads.setter
    def threads(self, int threads):
        if not 1 <= threads <= MAX_THREADS:
            raise SearchInputError(f"a solver runs 1 to {MAX_THREADS} threads, not {threads}")
        self._threads = threads

    cdef int _split_threads(self, int n) noexcept nogil:
        """How many threads to split a root of ``n`` cards between; 1 for
        no split (one thread, or a position too small to pay)."""
        if self._threads == 1 or n < 2 or popcount(cards_in_play(&self.state)) < self.threads_from_cards:
            return 1
        return min(self._threads, n)

    cdef int _split(self, int kind, int threads, int8_t* moves, SearchState* children, int* gains, int n,
                    bint maximizing, int target, int* results) noexcept nogil:
        """Split the root's cards between ``threads`` threads (root_part);
        return the best value found (ROOT_KEEPS: nothing of use)."""
        cdef RootWork work
        cdef Table views[MAX_THREADS]
        cdef Table goal_views[MAX_THREADS]
        cdef uint64_t nodes[MAX_THREADS]
        cdef int8_t dominator[64]
        cdef int8_t index_of[64]
        cdef int8_t dominators[MAX_MOVES]
        cdef int t, i
        for i in range(n):
            dominators[i] = -1
            results[i] = UNVALUED
        if kind != ROOT_KEEPS:  # whether a card keeps a value needs no bounds
            root_dominators(self.state.hand, self.state.leader, self.state.led, goal_alone(&self.state), dominator)
            for i in range(n):
                index_of[moves[i]] = <int8_t>i
            for i in range(n):
                if dominator[moves[i]] != NO_CARD:
                    dominators[i] = index_of[dominator[moves[i]]]
        work.dominators = dominators
        work.kind, work.n, work.children, work.gains, work.results = kind, n, children, gains, results
        work.maximizing, work.target, work.threads = maximizing, target, threads
        work.tt, work.goal_tt, work.views, work.goal_views, work.nodes = &self.tt, &self.goal_tt, views, goal_views, nodes
        work.lookalike = &self.lookalike
        work.unknown = -INFINITE if maximizing else INFINITE
        work.best = work.unknown
        work.next = 0
        work.bisect = kind != ROOT_KEEPS and target < 0
        work.lower, work.upper = 0, thirds_in_play(&children[0])
        run_threads(threads, root_part, &work)
        for t in range(threads):
            table_add_counts(&self.tt, &views[t])
            table_add_counts(&self.goal_tt, &goal_views[t])
            self.state.nodes += nodes[t]
        return work.best

    cdef int _value(self, int guess) noexcept nogil:
        """The position's value: by bisection, or by MTD(f) from ``guess``
        (>= 0); split by cards between the threads when that pays."""
        cdef int8_t moves[MAX_MOVES]
        cdef SearchState children[MAX_MOVES]
        cdef int gains[MAX_MOVES]
        cdef int statuses[MAX_MOVES]
        cdef int results[MAX_MOVES]
        cdef int n, threads
        cdef bint maximizing
        if self._split_threads(MAX_MOVES) > 1:
            maximizing = side_to_move(self.state.leader, self.state.led) == self.state.declarer
            n = expand(&self.state, moves, children, gains, statuses)
            threads = self._split_threads(n)
            if threads > 1:
                return self._split(ROOT_VALUE, threads, moves, children, gains, n, maximizing, guess, results)
        if guess < 0:
            return exact_value(&self.state)
        return mtdf_value(&self.state, guess, 0, thirds_in_play(&self.state))

    def clear(self):
        """Empty the transposition table (and the look-alike tables)."""
        table_clear(&self.tt)
        lookalike_clear(&self.lookalike)
        self.last_goal = -1  # the next goal query starts from an empty goal table too

    def _table_capsule(self):
        """The main table, for the point searches of a
        :class:`~kosolve.engine._score.ScoreSolver` made with this solver
        (its frame asks what this solver's searches store, and the other
        way round); the score solver keeps this solver alive."""
        return PyCapsule_New(<void*>&self.tt, table_capsule_name(), NULL)

    def value(self, Hand forehand, Hand dealer, int leader, int declarer, int led=NO_CARD, int guess=-1):
        """The declarer's future thirds with best play by both sides.  A
        ``guess`` (such as the value a card earlier) starts MTD(f) there;
        without one the value is found by bisection."""
        cdef int result
        self._set(forehand, dealer, leader, declarer, led)
        with nogil:
            result = self._value(guess)
        return result

    def keeping_cards(self, Hand forehand, Hand dealer, int leader, int declarer, int led=NO_CARD, *, int value):
        """The legal cards of the side to move that keep ``value``, the
        position's value: one null-window test a group of equal cards."""
        cdef int8_t moves[MAX_MOVES]
        cdef SearchState children[MAX_MOVES]
        cdef int gains[MAX_MOVES]
        cdef int statuses[MAX_MOVES]
        cdef int results[MAX_MOVES]
        cdef bint keeps[64]
        cdef int n, i, threads
        cdef bint maximizing
        cdef Hand legal, in_play
        self._set(forehand, dealer, leader, declarer, led)
        in_play = cards_in_play(&self.state)
        legal = legal_cards(&self.state)
        with nogil:
            maximizing = side_to_move(self.state.leader, self.state.led) == self.state.declarer
            n = expand(&self.state, moves, children, gains, statuses)
            threads = self._split_threads(n)
            if threads > 1:
                self._split(ROOT_KEEPS, threads, moves, children, gains, n, maximizing, value, results)
                for i in range(n):
                    keeps[moves[i]] = results[i]
            else:
                for i in range(n):
                    keeps[moves[i]] = keeps_value(&children[i], value - gains[i], maximizing)
                    self.state.nodes += children[i].nodes
        return [card for card, rep in _representative_of(legal, in_play) if keeps[rep]]

    def move_values(self, Hand forehand, Hand dealer, int leader, int declarer, int led=NO_CARD):
        """``[(card, value), ...]`` for every legal card of the side to move,
        lowest card first; ``value`` is the declarer's future thirds after
        that card, including what it wins now."""
        cdef int8_t moves[MAX_MOVES]
        cdef SearchState children[MAX_MOVES]
        cdef int gains[MAX_MOVES]
        cdef int statuses[MAX_MOVES]
        cdef int results[MAX_MOVES]
        cdef int values[64]
        cdef int n, i, threads
        cdef bint maximizing
        cdef Hand legal, in_play
        self._set(forehand, dealer, leader, declarer, led)
        in_play = cards_in_play(&self.state)
        legal = legal_cards(&self.state)
        with nogil:
            maximizing = side_to_move(self.state.leader, self.state.led) == self.state.declarer
            n = expand(&self.state, moves, children, gains, statuses)
            threads = self._split_threads(n)
            if threads > 1:
                self._split(ROOT_MOVE_VALUES, threads, moves, children, gains, n, maximizing, -1, results)
                for i in range(n):
                    values[moves[i]] = results[i]
            else:
                value_cards(&self.state, n, moves, children, gains, values)
        return [(card, values[rep]) for card, rep in _representative_of(legal, in_play)]

    def line(self, Hand forehand, Hand dealer, int leader, int declarer, int led=NO_CARD):
        """An optimal line of play to the end of the hand, as a list of cards."""
        cdef int8_t moves[MAX_MOVES]
        cdef SearchState children[MAX_MOVES]
        cdef int gains[MAX_MOVES]
        cdef int statuses[MAX_MOVES]
        cdef int n, i = 0, value
        cdef bint maximizing, found = False
        self._set(forehand, dealer, leader, declarer, led)
        result = []
        with nogil:
            value = self._value(-1)
        while self.state.hand[0] | self.state.hand[1]:
            with nogil:
                maximizing = side_to_move(self.state.leader, self.state.led) == self.state.declarer
                n = expand(&self.state, moves, children, gains, statuses)
                for i in range(n):
                    found = keeps_value(&children[i], value - gains[i], maximizing)
                    self.state.nodes += children[i].nodes
                    if found:
                        break
            if not found:
                raise RuntimeError("no move keeps the value: the search is inconsistent")
            value -= gains[i]
            children[i].nodes = self.state.nodes
            self.state = children[i]
            result.append(moves[i])
        return result

    def reaches(self, Hand forehand, Hand dealer, int leader, int declarer, int led=NO_CARD, *, int need):
        """Whether the declarer can take at least ``need`` more thirds: one
        null-window search."""
        cdef int result
        self._set(forehand, dealer, leader, declarer, led)
        with nogil:
            result = search(&self.state, need)
        return result >= need

    def goal_feasible(self, Hand forehand, Hand dealer, int leader, int owner, int led=NO_CARD, *,
                      int goal, int bird=NO_CARD, int trick=0, int need=0):
        """Whether ``owner`` can force the goal: GOAL_VALAT (every trick
        still to play) or GOAL_BIRD (``bird`` wins trick ``trick``, 13 to 16,
        itself).  With ``need`` > 0 the owner, who must then be the declarer,
        must also take at least ``need`` more thirds, by one strategy."""
        cdef int beta = self._set_goal(forehand, dealer, leader, owner, led, goal, bird, trick, need)
        cdef int result
        if beta < 0:
            return False
        with nogil:
            result = search(&self.state, beta)
        return result >= beta

    def goal_line(self, Hand forehand, Hand dealer, int leader, int owner, int led=NO_CARD, *,
                  int goal, int bird=NO_CARD, int trick=0, int need=0):
        """``(feasible, line)``: a line on which the owner reaches the goal
        whatever the opponent does, or on which the opponent stops it
        whatever the owner does, up to the trick that decides it (to the end
        of the hand when thirds count)."""
        cdef int8_t moves[MAX_MOVES]
        cdef SearchState children[MAX_MOVES]
        cdef int gains[MAX_MOVES]
        cdef int statuses[MAX_MOVES]
        cdef int beta = self._set_goal(forehand, dealer, leader, owner, led, goal, bird, trick, need)
        cdef int n, i = 0, gain = 0, status = GOAL_OPEN, target
        cdef bint feasible, owner_moves, keeps = False
        cdef SearchState* child
        if beta < 0:
            return False, []
        with nogil:
            feasible = search(&self.state, beta) >= beta
        target = beta
        result = []
        while self.state.hand[0] | self.state.hand[1]:
            # The side whose every card keeps the outcome may play any; the
            # other must find a card that keeps it.
            owner_moves = side_to_move(self.state.leader, self.state.led) == self.state.declarer
            with nogil:
                n = expand(&self.state, moves, children, gains, statuses)
                for i in range(n):
                    child, status = &children[i], statuses[i]
                    gain = gains[i] if child.goal_points else 0  # without thirds only the goal counts
                    if status == GOAL_BROKEN:
                        keeps = not feasible
                    elif status == GOAL_MET and not child.goal_points:
                        keeps = feasible
                    else:
                        keeps = (search(child, target - gain) >= target - gain) == feasible
                    self.state.nodes += child.nodes
                    if keeps or owner_moves != feasible:
                        break
            if not keeps and owner_moves == feasible:
                raise RuntimeError("no card keeps the goal's outcome: the search is inconsistent")
            children[i].nodes = self.state.nodes
            self.state = children[i]
            target -= gain
            result.append(moves[i])
            if status != GOAL_OPEN and not (status == GOAL_MET and self.state.goal_points):
                break
        return feasible, result

    @property
    def stats(self):
        """Counters since the solver was made: nodes searched and table use."""
        return {"nodes": self.earlier_nodes + self.state.nodes, **table_stats(&self.tt)}


def _representative_of(Hand legal, Hand in_play):
    """``(card, representative)`` for every legal card, lowest first: the
    representative is the card searched for its group of equal cards."""
    result = []
    rep = previous = NO_CARD
    for card in range(54):
        if legal >> card & 1:
            if not _same_group(previous, card, in_play):
                rep = card
            result.append((card, rep))
            previous = card
    return result


def _same_group(int previous, int card, Hand in_play):
    """Whether ``card`` is equivalent to ``previous``, the next lower legal card."""
    cdef int8_t moves[MAX_MOVES]
    if previous == NO_CARD:
        return False
    return representatives(bit(previous) | bit(card), in_play, 0, moves) == 1
