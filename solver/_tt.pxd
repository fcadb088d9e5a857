# The transposition table: a fixed block of two-entry buckets.
#
# An entry holds bounds on the declarer's *future* thirds from a trick
# boundary (never the score so far), so a position reached by another order of
# tricks reuses it.
#
# Positions are stored by pattern, not by card.  What decides the rest of the
# hand is only, for each suit and the tarocks, the order of the cards still in
# play, who holds each, and what each is worth.  Every card worth 1 point (the
# suit pips and the tarocks II to XX) is interchangeable with another of its
# suit that is still in play, so the key moves those cards down to the lowest
# ranks of their group (the suits' pips 4..1 / 7..10, the tarocks II..XX) and
# keeps the counting cards where they are.  Positions with the same pattern
# share an entry, whichever low cards were played before.
#
# Entry layout, 24 bytes:
#
#   offset  size  field
#        0     8  forehand  forehand's cards, in pattern form
#        8     8  dealer    dealer's cards in pattern form | leader << 62 | declarer << 63
#       16     2  lower     lower bound on the declarer's future thirds
#       18     2  upper     upper bound on the declarer's future thirds
#       20     1  move      best (or refuting) lead found, in pattern form; -1 if none
#       21     1  depth     cards left in both hands: the replacement priority
#       22     1  age       the solve that last wrote the entry
#       23     1  (padding)
#
# A bucket is two neighbouring entries.  The search calls only tt_key,
# tt_probe, tt_move and tt_store.

from libc.stdint cimport int8_t, int16_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memset

from kosolve._bits cimport Hand, bit, gather_bits, lowest_card, popcount, scatter_bits


cdef enum:
    NO_MOVE = -1
    UNBOUNDED = 32767


cdef struct TTEntry:
    Hand forehand       # forehand's cards in pattern form; 0 in an empty slot
    uint64_t dealer     # dealer's cards in pattern form, the leader in bit 62, the declarer in bit 63
    int16_t lower       # the declarer's future thirds are at least this
    int16_t upper       # ... and at most this
    int8_t move         # best or refuting lead in pattern form, NO_MOVE if none is known
    uint8_t depth       # cards left in both hands when stored; 0 marks an empty slot
    uint8_t age         # TranspositionTable.age when stored


cdef struct TranspositionTable:
    TTEntry* entries    # n_entries entries, owned by the Solver that made the table
    uint64_t mask       # n_entries - 1; n_entries is a power of two
    uint8_t age         # bumped for every root solve so stale entries go first
    uint64_t probes     # probes made
    uint64_t hits       # probes that found their position
    uint64_t stores     # entries written
    uint64_t overwrites # stores that evicted another position of the current age


cdef struct TTKey:
    Hand forehand       # forehand's cards in pattern form
    uint64_t dealer     # dealer's cards in pattern form | leader << 62 | declarer << 63
    Hand in_play        # the real cards in play, to map moves between the two forms
    Hand pattern        # the cards in play in pattern form


cdef extern from *:
    """
    /* The 1-point cards: the four lowest ranks of each suit, the tarocks II..XX. */
    #define KOSOLVE_SUIT_PIPS 0x0F0F0F0FULL
    #define KOSOLVE_MIDDLE_TAROCKS 0x000FFFFE00000000ULL
    """
    const Hand SUIT_PIPS "KOSOLVE_SUIT_PIPS"
    const Hand MIDDLE_TAROCKS "KOSOLVE_MIDDLE_TAROCKS"


cdef inline int tt_allocate(TranspositionTable* tt, size_t n_bytes) except -1:
    """Allocate the largest power-of-two number of entries within n_bytes."""
    cdef size_t n = 2
    while n * 2 * sizeof(TTEntry) <= n_bytes:
        n *= 2
    tt.entries = <TTEntry*> calloc(n, sizeof(TTEntry))
    if tt.entries == NULL:
        raise MemoryError(f"cannot allocate a transposition table of {n * sizeof(TTEntry)} bytes")
    tt.mask = n - 1
    tt.age = 0
    tt.probes = tt.hits = tt.stores = tt.overwrites = 0
    return 0


cdef inline void tt_release(TranspositionTable* tt) noexcept nogil:
    free(tt.entries)
    tt.entries = NULL


cdef inline void tt_clear(TranspositionTable* tt) noexcept nogil:
    memset(tt.entries, 0, (tt.mask + 1) * sizeof(TTEntry))


cdef inline Hand pattern_of(Hand in_play) noexcept nogil:
    """The cards in play with every 1-point card moved down to the lowest
    free rank of its group."""
    cdef Hand pattern = in_play & ~(SUIT_PIPS | MIDDLE_TAROCKS)
    cdef int suit
    for suit in range(4):
        pattern |= ((bit(popcount(in_play & (<Hand>0x0F << (8 * suit)))) - 1) << (8 * suit))
    pattern |= (bit(popcount(in_play & MIDDLE_TAROCKS)) - 1) << 33
    return pattern


cdef inline void tt_key(TTKey* key, Hand forehand_hand, Hand dealer_hand, int leader, int declarer) noexcept nogil:
    key.in_play = forehand_hand | dealer_hand
    key.pattern = pattern_of(key.in_play)
    key.forehand = scatter_bits(gather_bits(forehand_hand, key.in_play), key.pattern)
    key.dealer = (key.pattern ^ key.forehand) | (<uint64_t>leader << 62) | (<uint64_t>declarer << 63)


cdef inline int tt_move(TTKey* key, TTEntry* entry) noexcept nogil:
    """The real card of an entry's move, or NO_MOVE."""
    if entry == NULL or entry.move < 0:
        return NO_MOVE
    return lowest_card(scatter_bits(gather_bits(bit(entry.move), key.pattern), key.in_play))


cdef inline TTEntry* tt_bucket(TranspositionTable* tt, TTKey* key) noexcept nogil:
    cdef uint64_t h = key.forehand * <uint64_t>0x9E3779B97F4A7C15ULL
    h ^= key.dealer * <uint64_t>0xC2B2AE3D27D4EB4FULL
    h ^= h >> 31
    return tt.entries + ((h & tt.mask) & ~(<uint64_t>1))


cdef inline bint tt_matches(TTEntry* entry, TTKey* key) noexcept nogil:
    return entry.depth != 0 and entry.forehand == key.forehand and entry.dealer == key.dealer


cdef inline TTEntry* tt_probe(TranspositionTable* tt, TTKey* key) noexcept nogil:
    """The entry of the position's pattern, or NULL."""
    cdef TTEntry* bucket = tt_bucket(tt, key)
    tt.probes += 1
    if tt_matches(bucket, key):
        tt.hits += 1
        return bucket
    if tt_matches(bucket + 1, key):
        tt.hits += 1
        return bucket + 1
    return NULL


cdef inline void tt_store(TranspositionTable* tt, TTKey* key, int value, int beta, int move) noexcept nogil:
    """Record a fail-soft search result: ``value >= beta`` is a lower bound,
    ``value < beta`` an upper bound.  Bounds already known are kept."""
    cdef TTEntry* bucket = tt_bucket(tt, key)
    cdef TTEntry* e
    if tt_matches(bucket, key):
        e = bucket
    elif tt_matches(bucket + 1, key):
        e = bucket + 1
    else:
        # Evict an entry of an earlier solve first, then the shallower one.
        if bucket[0].age != tt.age or bucket[1].age != tt.age:
            e = bucket if bucket[0].age != tt.age else bucket + 1
        else:
            e = bucket if bucket[0].depth <= bucket[1].depth else bucket + 1
            tt.overwrites += 1
        e.forehand = key.forehand
        e.dealer = key.dealer
        e.lower = 0
        e.upper = UNBOUNDED
        e.move = NO_MOVE
    e.depth = <uint8_t>popcount(key.pattern)
    e.age = tt.age
    if value >= beta:
        if value > e.lower:
            e.lower = <int16_t>value
        e.move = <int8_t>lowest_card(scatter_bits(gather_bits(bit(move), key.in_play), key.pattern))
    elif value < e.upper:
        e.upper = <int16_t>value
    tt.stores += 1
