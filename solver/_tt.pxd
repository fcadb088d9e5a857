# The transposition table: a fixed block of two-entry buckets.
#
# An entry holds bounds on the declarer's *future* thirds from a trick
# boundary (never the score so far), so a position reached by another order of
# tricks reuses it.  Entry layout, 24 bytes:
#
#   offset  size  field
#        0     8  forehand  forehand's remaining cards
#        8     8  dealer    dealer's remaining cards | leader << 62 | declarer << 63
#       16     2  lower     lower bound on the declarer's future thirds
#       18     2  upper     upper bound on the declarer's future thirds
#       20     1  move      best (or refuting) lead found, -1 if none
#       21     1  depth     cards left in both hands: the replacement priority
#       22     1  age       the solve that last wrote the entry
#       23     1  (padding)
#
# A bucket is two neighbouring entries, one cache line apart at most.  The
# search calls only tt_probe and tt_store.

from libc.stdint cimport int8_t, int16_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memset

from kosolve._bits cimport Hand, popcount


cdef struct TTEntry:
    Hand forehand       # forehand's remaining cards; 0 in an empty slot
    uint64_t dealer     # dealer's remaining cards, the leader in bit 62, the declarer in bit 63
    int16_t lower       # the declarer's future thirds are at least this
    int16_t upper       # ... and at most this
    int8_t move         # best or refuting lead, -1 if none is known
    uint8_t depth       # cards left in both hands when stored
    uint8_t age         # TranspositionTable.age when stored


cdef struct TranspositionTable:
    TTEntry* entries    # n_entries entries, owned by the Solver that made the table
    uint64_t mask       # n_entries - 1; n_entries is a power of two
    uint8_t age         # bumped for every root solve so stale entries go first
    uint64_t probes     # probes made
    uint64_t hits       # probes that found their position
    uint64_t stores     # entries written
    uint64_t overwrites # stores that evicted another position of the current age


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


cdef inline uint64_t tt_key(Hand forehand_hand, Hand dealer_hand, int leader, int declarer) noexcept nogil:
    return dealer_hand | (<uint64_t>leader << 62) | (<uint64_t>declarer << 63)


cdef inline TTEntry* tt_bucket(TranspositionTable* tt, Hand forehand_hand, uint64_t key) noexcept nogil:
    cdef uint64_t h = forehand_hand * <uint64_t>0x9E3779B97F4A7C15ULL
    h ^= key * <uint64_t>0xC2B2AE3D27D4EB4FULL
    h ^= h >> 31
    return tt.entries + ((h & tt.mask) & ~(<uint64_t>1))


cdef inline TTEntry* tt_probe(TranspositionTable* tt, Hand forehand_hand, uint64_t key) noexcept nogil:
    """The entry of the position, or NULL."""
    cdef TTEntry* bucket = tt_bucket(tt, forehand_hand, key)
    tt.probes += 1
    if bucket[0].forehand == forehand_hand and bucket[0].dealer == key and bucket[0].depth:
        tt.hits += 1
        return bucket
    if bucket[1].forehand == forehand_hand and bucket[1].dealer == key and bucket[1].depth:
        tt.hits += 1
        return bucket + 1
    return NULL


cdef inline void tt_store(TranspositionTable* tt, Hand forehand_hand, uint64_t key, int value, int beta,
                          int move) noexcept nogil:
    """Record a fail-soft search result: ``value >= beta`` is a lower bound,
    ``value < beta`` an upper bound.  Bounds already known are kept."""
    cdef TTEntry* bucket = tt_bucket(tt, forehand_hand, key)
    cdef TTEntry* e
    cdef int depth = popcount(forehand_hand | (key & ((<uint64_t>1 << 62) - 1)))
    if bucket[0].forehand == forehand_hand and bucket[0].dealer == key and bucket[0].depth:
        e = bucket
    elif bucket[1].forehand == forehand_hand and bucket[1].dealer == key and bucket[1].depth:
        e = bucket + 1
    else:
        # Evict an entry of an earlier solve first, then the shallower one.
        if bucket[0].age != tt.age or bucket[1].age != tt.age:
            e = bucket if bucket[0].age != tt.age else bucket + 1
        else:
            e = bucket if bucket[0].depth <= bucket[1].depth else bucket + 1
            if e.depth:
                tt.overwrites += 1
        e.forehand = forehand_hand
        e.dealer = key
        e.lower = 0
        e.upper = 32767
        e.move = -1
    e.depth = <uint8_t>depth
    e.age = tt.age
    if value >= beta:
        if value > e.lower:
            e.lower = <int16_t>value
        e.move = <int8_t>move
    else:
        if value < e.upper:
            e.upper = <int16_t>value
        if e.move < 0:
            e.move = <int8_t>move
    tt.stores += 1
