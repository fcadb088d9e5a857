# Move generation and ordering for the search: the candidate cards of the
# player to move, one representative per group of equivalent cards, sorted so
# that the likely best card comes first.
#
# Equivalent cards: cards of one hand that are adjacent among the cards still
# in play (both hands and the card on the table) within one suit, and of
# equal value.  Swapping them changes neither a trick's winner nor its
# thirds, so searching the lowest of each group is enough.

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


cdef inline int representatives(Hand candidates, Hand in_play, Hand alone, int8_t* moves) noexcept nogil:
    """Write the lowest card of each group of equivalent candidates to
    ``moves``, lowest first; return how many.  Cards in ``alone`` (a bird
    that a goal names) form groups of their own."""
    cdef Hand kept = candidates & ~grouped_cards(candidates, in_play, alone)
    cdef int n = 0
    while kept:
        moves[n] = <int8_t>lowest_card(kept)
        kept &= kept - 1
        n += 1
    return n


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


cdef inline int order_leads(Hand own, Hand opponent, int tt_move, Hand alone, int8_t* moves,
                            bint declarer) noexcept nogil:
    """The leads worth searching, best first: the table's move, then by
    :func:`lead_score`."""
    cdef int scores[MAX_MOVES]
    cdef int n = representatives(own, own | opponent, alone, moves)
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
        return order_leads(hand[leader], hand[1 - leader], first, alone, moves, maximizing)
    return order_replies(legal_replies(hand[1 - leader], led), hand[0] | hand[1] | bit(led), led, alone, moves)
