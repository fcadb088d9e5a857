# The transposition table both searches share: a fixed block of 64-byte
# buckets, one cache line a probe, each bucket a few entries of one size.
#
# An entry is its search's key (one or more 64-bit words) followed by a Slot,
# the part both searches store alike:
#
#   offset (from the slot)  size  field
#        0                     2  lower   lower bound on the value searched
#        2                     2  upper   upper bound
#        4                     1  move    the search's move hint (each search says how it codes it); -1 if none
#        5                     1  tag     the key's bits that its words leave out
#        6                     1  depth   cards in play when stored (0 marks an empty slot): the replacement priority
#        7                     1  age     the solve (or query) that last wrote it
#
# The point search's entry (docs/search.md) is one key word and a slot, 16
# bytes, four to a bucket; the score search's is three words and a slot, 32
# bytes, two to a bucket.  A store for a new position evicts an entry of an
# earlier age first, then the one with the fewest cards in play.  Values are
# bounds, independent of the search window, so what a table held before never
# changes an answer.
#
# Allocation, release and the statistics live in _table.pyx; the probe and the
# store are inline here, called with the key's length as a constant so that
# the compiler unrolls them for each search.

from libc.stdint cimport int16_t, int8_t, uint8_t, uint64_t
from libc.string cimport memset


cdef enum:
    UNBOUNDED = 32767   # a bound not known yet: beyond any value either search stores
    NO_MOVE = -1        # a slot without a move hint
    BUCKET_BYTES = 64   # one cache line


cdef struct Slot:
    int16_t lower       # the value is at least this
    int16_t upper       # ... and at most this
    int8_t move         # the search's move hint, NO_MOVE if none
    uint8_t tag         # key bits beside the key words
    uint8_t depth       # cards in play when stored; 0 in an empty slot
    uint8_t age         # Table.age when stored


cdef struct Table:
    char* buckets       # (mask + 1) * BUCKET_BYTES bytes, 64-byte aligned (2 MB from 2 MB on), owned by a solver
    uint64_t mask       # buckets - 1; the number of buckets is a power of two
    uint8_t age         # bumped for every root solve (or query) so that stale entries go first
    bint current_only   # entries of other ages do not count (a table of one query at a time)
    uint64_t probes     # probes made
    uint64_t hits       # probes that found their position
    uint64_t stores     # entries written
    uint64_t overwrites # stores that evicted another position of the current age
    int entry_bytes     # the size of an entry: key words and a slot


cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define KOSOLVE_PREFETCH(p) __builtin_prefetch(p)
    #else
    #define KOSOLVE_PREFETCH(p) ((void)(p))
    #endif
    """
    void prefetch "KOSOLVE_PREFETCH"(const void* p) noexcept nogil


cdef int table_allocate(Table* table, double mb, int key_words, bint current_only) except -1
cdef void table_release(Table* table) noexcept nogil
cdef dict table_stats(Table* table)


cdef inline uint64_t table_bytes(Table* table) noexcept nogil:
    return (table.mask + 1) * BUCKET_BYTES


cdef inline void table_clear(Table* table) noexcept nogil:
    memset(table.buckets, 0, table_bytes(table))


cdef inline void table_new_age(Table* table) noexcept nogil:
    """Start a new solve.  A table that counts only current entries is
    cleared when the age wraps round, so that no entry comes back to life."""
    table.age = <uint8_t>(table.age + 1)
    if table.age == 0 and table.current_only:
        table_clear(table)
        table.age = 1


cdef inline char* table_bucket(Table* table, uint64_t hash) noexcept nogil:
    return table.buckets + (hash & table.mask) * BUCKET_BYTES


cdef inline void table_prefetch(Table* table, uint64_t hash) noexcept nogil:
    """Start loading a position's bucket; its probe comes a little later."""
    prefetch(table_bucket(table, hash))


cdef inline Slot* slot_of(char* bucket, int i, int key_words) noexcept nogil:
    """The slot of the ``i``-th entry of a bucket: it follows the key words."""
    return <Slot*>(bucket + i * (8 * key_words + sizeof(Slot)) + 8 * key_words)


cdef inline bint entry_matches(Table* table, char* bucket, int i, const uint64_t* key, int key_words,
                               uint8_t tag) noexcept nogil:
    cdef const uint64_t* words = <const uint64_t*>(bucket + i * (8 * key_words + sizeof(Slot)))
    cdef Slot* slot = slot_of(bucket, i, key_words)
    cdef int w
    # The key words first: most entries of a bucket are other positions, and
    # the words tell them apart at once (the tag seldom does), which keeps
    # the branches predictable.
    if slot.depth == 0:
        return False
    for w in range(key_words):
        if words[w] != key[w]:
            return False
    return slot.tag == tag and (slot.age == table.age or not table.current_only)


cdef inline Slot* table_probe(Table* table, const uint64_t* key, int key_words, uint8_t tag,
                              uint64_t hash) noexcept nogil:
    """The slot of the position with this key, or NULL."""
    cdef char* bucket = table_bucket(table, hash)
    cdef int i
    table.probes += 1
    for i in range(BUCKET_BYTES // (8 * key_words + sizeof(Slot))):
        if entry_matches(table, bucket, i, key, key_words, tag):
            table.hits += 1
            return slot_of(bucket, i, key_words)
    return NULL


cdef inline Slot* table_store(Table* table, const uint64_t* key, int key_words, uint8_t tag, uint64_t hash,
                              int depth, int value, int beta) noexcept nogil:
    """Record a fail-soft search result: ``value >= beta`` is a lower bound,
    ``value < beta`` an upper bound; bounds already known are kept.  A new
    position replaces an entry of an earlier age first, then the one with
    the fewest cards in play (``depth``), and starts without a move.  The
    caller sets the move hint in the slot returned."""
    cdef char* bucket = table_bucket(table, hash)
    cdef Slot* slot = NULL
    cdef Slot* victim = slot_of(bucket, 0, key_words)
    cdef Slot* other
    cdef uint64_t* words
    cdef int i, w
    for i in range(BUCKET_BYTES // (8 * key_words + sizeof(Slot))):
        other = slot_of(bucket, i, key_words)
        if entry_matches(table, bucket, i, key, key_words, tag):
            slot = other
            break
        if (other.age != table.age) > (victim.age != table.age) or (
                (other.age != table.age) == (victim.age != table.age) and other.depth < victim.depth):
            victim = other
    if slot == NULL:
        slot = victim
        if slot.depth and slot.age == table.age:
            table.overwrites += 1
        words = <uint64_t*>(<char*>slot - 8 * key_words)
        for w in range(key_words):
            words[w] = key[w]
        slot.tag = tag
        slot.lower = -UNBOUNDED
        slot.upper = UNBOUNDED
        slot.move = NO_MOVE
    slot.depth = <uint8_t>depth
    slot.age = table.age
    if value >= beta:
        if value > slot.lower:
            slot.lower = <int16_t>value
    elif value < slot.upper:
        slot.upper = <int16_t>value
    table.stores += 1
    return slot
