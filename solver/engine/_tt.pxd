# The point search's side of the transposition table (_table.pxd): its keys
# and its 16-byte entries, four to a 64-byte bucket, one cache line a probe.
#
# An entry holds bounds on the declarer's *future* thirds from a trick
# boundary (never the score so far), so a position reached by another order of
# tricks reuses it.
#
# Positions are stored by pattern, not by card.  What decides the rest of the
# hand is only, for each suit and the tarocks, the order of the cards still in
# play, who holds each, and what each is worth.  The 1-point cards of a group
# (the four low pips of a suit, the tarocks II..XX) are interchangeable, so
# only their number counts; the counting cards (J C Q K of each suit, the
# tarocks I, XXI, Sk) are named.  The key is that pattern, which of the cards
# in play (in card order) the forehand holds, the leader and the declarer:
#
#   pattern, 36 bits: which counting cards are in play (19 bits: J C Q K of
#                     each suit, the tarocks I, XXI, Sk), the number of pips
#                     of each suit (3 bits each) and of tarocks II..XX (5 bits)
#   holder,  32 bits: bit i set when the forehand holds the i-th card in play
#                     (at most 32 cards are in play at a trick boundary)
#
# Positions with the same key have the same value, whichever low cards were
# played before.  The key is stored whole, so no two positions share an entry.
# A goal search adds two bits of detail: where its bird (II, III or IV) stands
# among the 1-point tarocks in play, which the pattern alone does not tell.
#
# Entry layout, 16 bytes, four to a bucket (the table itself, its slots and
# its replacement are _table.pxd's):
#
#   offset  size  field
#        0     8  key     holder (bits 0..31) | pattern bits 0..31 (bits 32..63), stored XOR the
#                         slot (bytes 8..15) so that a probe sees a torn entry as a miss (_table.pxd)
#        8     2  lower   lower bound on the declarer's future thirds
#       10     2  upper   upper bound on the declarer's future thirds
#       12     1  move    the lead that last cut the search off here, as its index among the
#                         cards in play (_table.pxd's move_hint); -1 if none
#       13     1  tag     pattern bits 32..35 | leader << 4 | declarer << 5 | detail << 6
#       14     1  depth   cards in play when stored (0 marks an empty slot): the replacement priority
#       15     1  age     the solve that last wrote the entry
#
# The search calls only tt_key (or, for the positions after each reply to a
# trick, pattern_of and tt_key_without), tt_prefetch, tt_probe, tt_move and
# tt_store; the look-alike table (_lookalike.pxd) takes its key's parts
# through tt_holder and tt_pattern.

from libc.stdint cimport uint8_t, uint64_t

from kosolve.engine._bits cimport COUNTING_CARDS, MIDDLE_TAROCKS, NO_CARD, SUIT_PIPS, Hand, bit, gather_bits, popcount
from kosolve.engine._table cimport Slot, Table, hint_card, move_hint, table_prefetch, table_probe, table_store


cdef enum:
    TT_KEY_WORDS = 1    # an entry is the key word and a slot


cdef struct TTKey:
    uint64_t key        # the entry's key word: holder | low 32 bits of the pattern << 32
    uint8_t tag         # the slot's tag: high 4 bits of the pattern | leader << 4 | declarer << 5 | detail << 6
    Hand in_play        # the cards in play, to map moves to and from indices
    uint64_t hash       # key and tag mixed: its low bits choose the bucket
    Slot entry          # tt_probe's copy of the position's slot: other threads may rewrite the table's


cdef extern from *:
    """
    /* What each card adds to the pattern of the cards in play (pattern_of):
       its own bit for a counting card, one to its suit's count of pips or
       to the count of tarocks II..XX. */
    static const unsigned long long kosolve_pattern_deltas[64] = {
        0x80000ULL, 0x80000ULL, 0x80000ULL, 0x80000ULL, 0x1ULL, 0x2ULL,
        0x4ULL, 0x8ULL, 0x400000ULL, 0x400000ULL, 0x400000ULL, 0x400000ULL,
        0x10ULL, 0x20ULL, 0x40ULL, 0x80ULL, 0x2000000ULL, 0x2000000ULL,
        0x2000000ULL, 0x2000000ULL, 0x100ULL, 0x200ULL, 0x400ULL, 0x800ULL,
        0x10000000ULL, 0x10000000ULL, 0x10000000ULL, 0x10000000ULL, 0x1000ULL, 0x2000ULL,
        0x4000ULL, 0x8000ULL, 0x10000ULL, 0x80000000ULL, 0x80000000ULL, 0x80000000ULL,
        0x80000000ULL, 0x80000000ULL, 0x80000000ULL, 0x80000000ULL, 0x80000000ULL, 0x80000000ULL,
        0x80000000ULL, 0x80000000ULL, 0x80000000ULL, 0x80000000ULL, 0x80000000ULL, 0x80000000ULL,
        0x80000000ULL, 0x80000000ULL, 0x80000000ULL, 0x80000000ULL, 0x20000ULL, 0x40000ULL,
        0ULL, 0ULL, 0ULL, 0ULL, 0ULL, 0ULL,
        0ULL, 0ULL, 0ULL, 0ULL
    };
    """
    const uint64_t* PATTERN_DELTAS "kosolve_pattern_deltas"


cdef inline uint64_t pattern_of(Hand in_play) noexcept nogil:
    """The 36-bit pattern of the cards in play: the counting cards (19 bits),
    the number of pips of each suit (3 bits each) and the number of tarocks
    II..XX (5 bits)."""
    cdef uint64_t pips = in_play & SUIT_PIPS
    # Each byte's pip count, by adding neighbouring bits and then pairs.
    pips = pips - ((pips >> 1) & <uint64_t>0x05050505)
    pips = (pips & <uint64_t>0x03030303) + ((pips >> 2) & <uint64_t>0x03030303)
    return (gather_bits(in_play, COUNTING_CARDS) | (gather_bits(pips, <uint64_t>0x07070707) << 19)
            | (<uint64_t>popcount(in_play & MIDDLE_TAROCKS) << 31))


cdef inline void tt_key_of_pattern(TTKey* key, Hand forehand_hand, Hand in_play, uint64_t pattern, int leader,
                                   int declarer, int detail) noexcept nogil:
    """The key of a position whose pattern (pattern_of) is already known."""
    key.in_play = in_play
    key.key = gather_bits(forehand_hand, in_play) | (pattern << 32)
    key.tag = <uint8_t>((pattern >> 32) | (<uint64_t>leader << 4) | (<uint64_t>declarer << 5)
                        | (<uint64_t>detail << 6))
    # Worked out once a key: the prefetch, the probe and the store all need it.
    cdef uint64_t h = (key.key ^ (<uint64_t>key.tag << 58)) * <uint64_t>0x9E3779B97F4A7C15ULL
    h ^= h >> 29
    h *= <uint64_t>0xBF58476D1CE4E5B9ULL
    key.hash = h ^ (h >> 32)


cdef inline void tt_key(TTKey* key, Hand forehand_hand, Hand dealer_hand, int leader, int declarer,
                        int detail) noexcept nogil:
    cdef Hand in_play = forehand_hand | dealer_hand
    tt_key_of_pattern(key, forehand_hand, in_play, pattern_of(in_play), leader, declarer, detail)


cdef inline void tt_key_without(TTKey* key, Hand forehand_hand, Hand dealer_hand, uint64_t pattern, int card,
                                int leader, int declarer) noexcept nogil:
    """The key of the position after ``card`` leaves the hands, given the
    pattern of the hands before: one subtraction instead of a new pattern."""
    tt_key_of_pattern(key, forehand_hand & ~bit(card), (forehand_hand | dealer_hand) & ~bit(card),
                      pattern - PATTERN_DELTAS[card], leader, declarer, 0)


cdef inline uint64_t tt_holder(TTKey* key) noexcept nogil:
    """The key's holder bits: which of the cards in play the forehand holds."""
    return key.key & <uint64_t>0xFFFFFFFF


cdef inline uint64_t tt_pattern(TTKey* key) noexcept nogil:
    """The key's whole pattern (pattern_of), from its word and its tag."""
    return (key.key >> 32) | (<uint64_t>(key.tag & 0xF) << 32)


cdef inline int tt_move(TTKey* key, Slot* entry) noexcept nogil:
    """The card of an entry's move in this position, or NO_CARD."""
    if entry == NULL:
        return NO_CARD
    return hint_card(key.in_play, entry.move)


cdef inline void tt_prefetch(Table* tt, TTKey* key) noexcept nogil:
    """Start loading the position's bucket; the probe comes a little later."""
    table_prefetch(tt, key.hash)


cdef inline Slot* tt_probe(Table* tt, TTKey* key) noexcept nogil:
    """The entry of the position's key (a copy, ``key.entry``), or NULL."""
    return table_probe(tt, &key.key, TT_KEY_WORDS, key.tag, key.hash, &key.entry)


cdef inline void tt_store(Table* tt, TTKey* key, int value, int beta, int move) noexcept nogil:
    """Record a fail-soft search result (see table_store).  ``move`` is the
    lead that cut the search off (for either side), or NO_CARD when every
    lead was searched: such a node keeps the move it had."""
    table_store(tt, &key.key, TT_KEY_WORDS, key.tag, key.hash, popcount(key.in_play), value, beta,
                move_hint(key.in_play, move))
