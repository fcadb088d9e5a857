# Move generation and ordering for the search: the candidate cards of the
# player to move, one representative per group of equivalent cards, sorted so
# that the likely best card comes first.
#
# Equivalent cards: cards of one hand that are adjacent among the cards still
# in play (both hands and the card on the table) within one suit, and of
# equal value.  Swapping them changes neither a trick's winner nor its
# thirds, so searching the lowest of each group is enough.
#
# Dominated cards (below the root only): two cards of the mover's in one suit
# (the tarocks one suit) with no card of the other player's between them
# (the card on the table does not count: it leaves play) differ in nothing
# but their value once the trick's winner is settled, the same whichever of
# them is played and whatever the other answers.  The positions after
# either are then the same game with the two cards swapped: every line of
# one is a line of the other with the same trick winners, and only the two
# cards' thirds go to a different trick.  So when the mover surely wins the
# trick the more valuable card is at least as good for him, and when he
# surely loses it the cheaper one (the swap argument of skatsearch's
# ``reduce_unequal``; docs/search.md, "Dominated cards").  Such a set of
# touching cards with a settled trick is a *run*; one card of each run is
# searched.  Not at the root, where every card needs a value of its own.

from libc.stdint cimport int8_t

from kosolve.engine._bits cimport (
    MIDDLE_TAROCKS, NO_CARD, PAGAT, SKUS, SUIT_PIPS, TAROCKS, VALUE_CLASSES, VALUE_PLANE0, VALUE_PLANE1, VALUE_PLANE2,
    XXI, Hand, above, bit, card_value, gather_bits, highest_card, legal_replies, lowest_bit, lowest_card, popcount,
    scatter_bits, suit_mask, winning_replies,
)

cdef enum:
    MAX_MOVES = 16       # no hand holds more than 16 cards
    TT_MOVE_SCORE = 1 << 14
    WIN_SCORE = 1 << 12
    LOSE_SCORE = 1 << 10


cdef inline Hand grouped_cards(Hand candidates, Hand in_play, Hand alone) noexcept nogil:
    """The candidates equivalent to the next lower candidate, all at once.
    Squeezed to the cards in play, neighbours in play are neighbouring bits:
    a card joins its lower neighbour when both are candidates of one suit
    and value: two 1-point cards of one block (the pips of a suit, the
    tarocks II..XX; the lowest of a block has no such neighbour), or two of
    the 5-point tarocks I, XXI and Sk with no tarock II..XX in play between."""
    cdef Hand ones = in_play & (SUIT_PIPS | MIDDLE_TAROCKS)
    cdef Hand joins = ones & ~(lowest_bit(ones & 0x0F) | lowest_bit(ones & 0x0F00) | lowest_bit(ones & 0x0F0000)
                               | lowest_bit(ones & 0x0F000000) | lowest_bit(ones & MIDDLE_TAROCKS))
    cdef Hand held = gather_bits(candidates, in_play)
    cdef Hand joined, lone
    if in_play & bit(PAGAT) and not in_play & MIDDLE_TAROCKS:
        joins |= in_play & (bit(XXI) | bit(SKUS))  # I, XXI and Sk in play side by side
    elif in_play & bit(XXI):
        joins |= in_play & bit(SKUS)
    joined = held & (held << 1) & gather_bits(joins, in_play)
    if alone:
        lone = gather_bits(alone, in_play)
        joined &= ~(lone | (lone << 1))
    return scatter_bits(joined, in_play)


cdef inline int write_moves(Hand kept, int8_t* moves) noexcept nogil:
    """Write the cards of ``kept`` to ``moves``, lowest first; return how many."""
    cdef int n = 0
    while kept:
        moves[n] = <int8_t>lowest_card(kept)
        kept &= kept - 1
        n += 1
    return n


cdef inline int representatives(Hand candidates, Hand in_play, Hand alone, int8_t* moves) noexcept nogil:
    """Write the lowest card of each group of equivalent candidates to
    ``moves``, lowest first; return how many.  Cards in ``alone`` (a bird
    that a goal names) form groups of their own."""
    return write_moves(candidates & ~grouped_cards(candidates, in_play, alone), moves)


cdef inline Hand lead_candidates(Hand own, Hand opponent, Hand alone) noexcept nogil:
    """The leads worth searching at the root, as a mask: one card of each
    group of equivalent cards."""
    return own & ~grouped_cards(own, own | opponent, alone)


cdef inline void sort_by_score(int8_t* moves, int* scores, int n) noexcept nogil:
    """Insertion sort, highest score first; stable, so ties keep low cards first."""
    cdef int i, j, score
    cdef int8_t move
    for i in range(1, n):
        move = moves[i]
        score = scores[i]
        j = i - 1
        while j >= 0 and scores[j] < score:
            moves[j + 1] = moves[j]
            scores[j + 1] = scores[j]
            j -= 1
        moves[j + 1] = move
        scores[j + 1] = score


cdef inline bint lead_wins(int card, Hand opponent) noexcept nogil:
    """Whether a lead surely takes the trick: the opponent can neither beat
    it in its suit nor trump it."""
    cdef Hand same = opponent & suit_mask(card)
    if same:
        return card > highest_card(same)
    return card >= 32 or (opponent & TAROCKS) == 0


cdef inline int lowest_value(Hand cards) noexcept nogil:
    """The value of the cheapest card of ``cards`` (0 if there is none), by
    the value planes: no plane set is 1, plane 0 alone 2 (jacks), plane 1
    alone 3 (cavaliers), both 4 (queens), plane 2 is 5."""
    if not cards:
        return 0
    if cards & ~(VALUE_PLANE0 | VALUE_PLANE1 | VALUE_PLANE2):
        return 1
    if cards & VALUE_PLANE0 & ~VALUE_PLANE1:
        return 2
    if cards & VALUE_PLANE1 & ~VALUE_PLANE0:
        return 3
    return 4 if cards & VALUE_PLANE0 else 5


cdef inline int highest_value(Hand cards) noexcept nogil:
    """The value of the most valuable card of ``cards`` (0 if there is none)."""
    if not cards:
        return 0
    if cards & VALUE_PLANE2:
        return 5
    if cards & VALUE_PLANE0 & VALUE_PLANE1:
        return 4
    if cards & VALUE_PLANE1:
        return 3
    return 2 if cards & VALUE_PLANE0 else 1


cdef inline Hand next_run(Hand* cards, Hand blockers) noexcept nogil:
    """Take the run of the lowest card of ``cards`` out of them and return
    it: its cards of that suit up to the next card of ``blockers``."""
    cdef int card = lowest_card(cards[0])
    cdef Hand suit = suit_mask(card)
    cdef Hand run = cards[0] & suit
    cdef Hand stop = blockers & suit & ~((bit(card) << 1) - 1)
    if stop:
        run &= lowest_bit(stop) - 1
    cards[0] &= ~run
    return run


cdef inline Hand run_pick(Hand run, bint keep_valuable) noexcept nogil:
    """The card searched for a run: the lowest of its most valuable cards
    (``keep_valuable``: the mover wins the trick) or of its cheapest."""
    return lowest_bit(run & VALUE_CLASSES[highest_value(run) if keep_valuable else lowest_value(run)])


cdef inline Hand keep_one_per_run(Hand cards, Hand blockers, Hand kept, bint keep_valuable) noexcept nogil:
    """``kept`` with one card left of each run of ``cards``: ``cards`` are
    cards of the mover's whose trick is settled the same way (all won, or
    all lost), a run those of one suit with no card of ``blockers`` (the
    other player's) between them.  The card left is :func:`run_pick`'s."""
    cdef Hand run
    while cards:
        run = next_run(&cards, blockers)
        if run & (run - 1):
            kept = (kept & ~run) | run_pick(run, keep_valuable)
    return kept


cdef inline void settled_lead_cards(Hand own, Hand opponent, Hand alone, Hand* wins, Hand* loses) noexcept nogil:
    """The leads whose trick is settled: ``wins`` those of a suit above all
    of the opponent's cards in it, or of the tarocks when he has none, or of
    a suit when he has neither it nor a tarock (he cannot take the trick);
    ``loses`` those below all of his cards in a suit, or of a suit he is
    void in while he holds a tarock (he must take the trick).  Only suits
    with two such cards or more; ``alone`` cards never."""
    cdef Hand mine, theirs, suit
    cdef bint trumps = (opponent & TAROCKS) != 0
    cdef int index
    wins[0] = loses[0] = 0
    for index in range(5):
        suit = TAROCKS if index == 4 else (<Hand>0xFF) << (8 * index)
        mine = own & suit & ~alone
        if not mine & (mine - 1):
            continue
        theirs = opponent & suit
        if theirs:
            wins[0] |= above(mine, theirs)
            loses[0] |= mine & (lowest_bit(theirs) - 1)
        elif index == 4 or not trumps:
            wins[0] |= mine
        else:
            loses[0] |= mine


cdef inline Hand settled_leads(Hand kept, Hand own, Hand opponent, Hand alone) noexcept nogil:
    """``kept`` (leads worth searching) without the dominated leads: one
    card of each run of :func:`settled_lead_cards`.  ``alone`` cards are
    never dropped and never stand for others."""
    cdef Hand wins, loses
    settled_lead_cards(own, opponent, alone, &wins, &loses)
    return keep_one_per_run(loses, opponent, keep_one_per_run(wins, opponent, kept, True), False)


cdef inline void settled_reply_cards(Hand legal, int led, Hand alone, Hand* wins, Hand* loses) noexcept nogil:
    """The replies, all settled: ``wins`` the legal cards that take the
    trick, ``loses`` those that do not; ``alone`` cards in neither."""
    wins[0] = winning_replies(legal, led) & ~alone
    loses[0] = legal & ~wins[0] & ~alone


cdef inline Hand settled_replies(Hand kept, Hand legal, Hand leader_hand, int led, Hand alone) noexcept nogil:
    """``kept`` (replies worth searching) without the dominated replies: one
    card of each run of :func:`settled_reply_cards` (runs split by the
    leader's cards left, ``leader_hand``; the led card does not count)."""
    cdef Hand wins, loses
    settled_reply_cards(legal, led, alone, &wins, &loses)
    return keep_one_per_run(loses, leader_hand, keep_one_per_run(wins, leader_hand, kept, True), False)


cdef inline void mark_dominators(Hand cards, Hand blockers, bint keep_valuable, int8_t* dominator) noexcept nogil:
    """For each card of a run of ``cards`` but its pick, ``dominator[card]``
    is the pick (:func:`keep_one_per_run`'s runs)."""
    cdef Hand run, rest
    cdef int pick
    while cards:
        run = next_run(&cards, blockers)
        if run & (run - 1):
            pick = lowest_card(run_pick(run, keep_valuable))
            rest = run & ~bit(pick)
            while rest:
                dominator[lowest_card(rest)] = <int8_t>pick
                rest &= rest - 1


cdef inline void root_dominators(Hand* hand, int leader, int led, Hand alone, int8_t* dominator) noexcept nogil:
    """``dominator[card]``, for each legal card of the side to move, the card
    at least as good for him that the search below the root keeps in its
    place (:func:`settled_leads`, :func:`settled_replies`), or NO_CARD: at
    the root every card is valued, and a dominated card is worth at most
    its dominator to the mover."""
    cdef Hand wins, loses, other
    cdef int card
    for card in range(64):
        dominator[card] = NO_CARD
    if led == NO_CARD:
        settled_lead_cards(hand[leader], hand[1 - leader], alone, &wins, &loses)
        other = hand[1 - leader]
    else:
        settled_reply_cards(legal_replies(hand[1 - leader], led), led, alone, &wins, &loses)
        other = hand[leader]
    mark_dominators(wins, other, True, dominator)
    mark_dominators(loses, other, False, dominator)


cdef inline Hand beaters(int card, Hand same, Hand opponent) noexcept nogil:
    """The opponent's cards that beat a lead of ``card`` that does not surely
    win: his higher cards of its suit (``same``: his cards of the suit), or,
    void in it, his tarocks."""
    return same & ~((bit(card) << 1) - 1) if same else opponent & TAROCKS


cdef inline int lead_score(int card, Hand own, Hand opponent, bint declarer) noexcept nogil:
    """How promising a lead looks; ``declarer``: whether the leader is the
    declarer, whose leads are weighed apart from his opponent's.  The weights
    were fitted by coordinate search to the node counts of realistic deals
    (docs/benchmarks-history.md, "The point search, step by step"; fitted
    again, not kept: "The order of the cards the threads take").

    Sure winners first: the more valuable first, and the more the opponent
    must give up to follow (his cheapest legal reply); a sure-winning tarock
    first when the tarocks are even.  The declarer keeps a sure winner the
    opponent is void in (he has no tarocks either) for last, behind every
    losing lead.  The losing leads: suit cards before tarocks, the cheaper
    first; a lead the opponent can only beat with a valuable card first; a
    losing tarock the earlier the more tarocks the leader has over the
    opponent, and the higher the better (it draws the opponent's high
    tarocks); a forcing suit lead (the opponent trumps) later, the more so
    the more tarocks he holds.  The defender leads a losing suit card last
    when he holds the suit's top card, and a losing tarock the later the more
    of his tarocks are above the opponent's.  Small terms for the leader's
    highest and lowest card of the suit break ties."""
    cdef int value = card_value(card)
    cdef int tarock_lead = popcount(own & TAROCKS) - popcount(opponent & TAROCKS)
    cdef Hand same = opponent & suit_mask(card)
    cdef Hand mine = own & suit_mask(card)
    cdef Hand winners
    cdef int score
    if lead_wins(card, opponent):
        if declarer:
            score = WIN_SCORE + 144 * value - card
            if same:
                score += 32 * lowest_value(same)
            else:
                score -= 4552 * lowest_value(opponent) + 128
            if card >= 32:
                score += 128 - 16 * tarock_lead
            if card == lowest_card(mine):
                score -= 16
        else:
            score = WIN_SCORE + 224 * value - 2 * card
            if same:
                score += 64 * lowest_value(same)
            else:
                score += 32 * lowest_value(opponent) - 320
            if card >= 32:
                score += 128 - 4 * tarock_lead
            if card == highest_card(mine):
                score -= 96
        return score
    winners = beaters(card, same, opponent)
    if declarer:
        score = LOSE_SCORE - 36 * value - 2 * (card & 7)
        if not same:
            score -= 128 + 32 * popcount(winners)
        score += 8 * lowest_value(winners) - 8 * highest_value(winners)
        if card >= 32:
            score += 112 * tarock_lead - 288 - 16 * popcount(winners) + 8 * (card - 32)
        if card == lowest_card(mine):
            score += 16
        return score
    score = LOSE_SCORE - 16 * value - (card & 7)
    if not same:
        score -= 96 + 32 * popcount(winners)
    score += 24 * lowest_value(winners) - 4 * highest_value(winners)
    if card >= 32:
        score += 96 * tarock_lead - 288 - 20 * popcount(winners) + 8 * (card - 32)
        score -= 24 * popcount(above(own, opponent & TAROCKS))
    elif same and highest_card(mine) > highest_card(same):
        score -= 1184
    if card == highest_card(mine):
        score -= 32
    return score


cdef inline int order_leads(Hand kept, Hand own, Hand opponent, int tt_move, int8_t* moves,
                            bint declarer) noexcept nogil:
    """The leads of ``kept`` (:func:`lead_candidates`, or fewer), best
    first: the table's move, then by :func:`lead_score`."""
    cdef int scores[MAX_MOVES]
    cdef int n = write_moves(kept, moves)
    cdef int i
    for i in range(n):
        scores[i] = TT_MOVE_SCORE if moves[i] == tt_move else lead_score(moves[i], own, opponent, declarer)
    sort_by_score(moves, scores, n)
    return n


cdef inline int add_by_value(Hand cards, int value, int8_t* moves, int n) noexcept nogil:
    """Append the cards of ``cards`` worth ``value``, lowest first."""
    cdef Hand group = cards & VALUE_CLASSES[value]
    while group:
        moves[n] = <int8_t>lowest_card(group)
        group &= group - 1
        n += 1
    return n


cdef inline Hand reply_candidates(Hand legal, Hand in_play, Hand alone) noexcept nogil:
    """The replies worth searching, as a mask: one card of each group."""
    return legal & ~grouped_cards(legal, in_play, alone)


cdef inline int order_candidates(Hand kept, int led, int8_t* moves) noexcept nogil:
    """The replies of ``kept`` (:func:`reply_candidates`), best first: winning
    cards, the more valuable first and then the cheapest; then losing cards
    from the cheapest; the lower card first among cards of one value.  Built
    value by value from masks, with no scores to sort."""
    cdef Hand winners = winning_replies(kept, led)
    cdef int n = 0
    cdef int value
    if winners:
        for value in range(5, 0, -1):
            n = add_by_value(winners, value, moves, n)
    kept &= ~winners
    for value in range(1, 6):
        n = add_by_value(kept, value, moves, n)
    return n


cdef inline int order_replies(Hand legal, Hand in_play, int led, Hand alone, int8_t* moves) noexcept nogil:
    """The replies worth searching, best first (:func:`order_candidates`)."""
    return order_candidates(reply_candidates(legal, in_play, alone), led, moves)


cdef inline int order_moves(Hand* hand, int leader, int led, int first, Hand alone, int8_t* moves,
                            bint maximizing) noexcept nogil:
    """The legal cards of the side to move worth searching (one of each
    group), best first: leads (``first``, the table's, before the others) or
    replies to ``led``."""
    if led == NO_CARD:
        return order_leads(lead_candidates(hand[leader], hand[1 - leader], alone), hand[leader], hand[1 - leader],
                           first, moves, maximizing)
    return order_replies(legal_replies(hand[1 - leader], led), hand[0] | hand[1] | bit(led), led, alone, moves)
