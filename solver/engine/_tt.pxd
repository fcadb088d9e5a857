# The transposition table: a fixed block of 64-byte buckets of four 16-byte
# entries, one cache line a probe.
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
# Entry layout, 16 bytes:
#
#   offset  size  field
#        0     8  key     holder (bits 0..31) | pattern bits 0..31 (bits 32..63)
#        8     2  lower   lower bound on the declarer's future thirds
#       10     2  upper   upper bound on the declarer's future thirds
#       12     1  move    the lead that last cut the search off here, as its index among the
#                         cards in play; -1 if none
#       13     1  tag     pattern bits 32..35 | leader << 4 | declarer << 5 | detail << 6
#       14     1  depth   cards in play when stored (0 marks an empty slot): the replacement priority
#       15     1  age     the solve that last wrote the entry
#
# The search calls only tt_key (or, for the positions after each reply to a
# trick, pattern_of and tt_key_without), tt_prefetch, tt_probe, tt_move and
# tt_store.

from libc.stdint cimport int8_t, int16_t, uint8_t, uint64_t
from libc.stdlib cimport free
from libc.string cimport memset

from kosolve.engine._bits cimport (
    COUNTING_CARDS, MIDDLE_TAROCKS, SUIT_PIPS, Hand, bit, gather_bits, lowest_card, popcount, scatter_bits,
)


cdef enum:
    NO_MOVE = -1
    UNBOUNDED = 32767
    BUCKET_ENTRIES = 4


cdef struct TTEntry:
    uint64_t key        # holder | low 32 bits of the pattern << 32
    int16_t lower       # the declarer's future thirds are at least this
    int16_t upper       # ... and at most this
    int8_t move         # the lead of the last cutoff, index among the cards in play; NO_MOVE if none
    uint8_t tag         # high 4 bits of the pattern | leader << 4 | declarer << 5 | detail << 6
    uint8_t depth       # cards in play when stored; 0 in an empty slot
    uint8_t age         # TranspositionTable.age when stored


cdef struct TranspositionTable:
    TTEntry* entries    # n_buckets * BUCKET_ENTRIES entries, 64-byte aligned, owned by a Solver
    uint64_t mask       # n_buckets - 1; n_buckets is a power of two
    uint8_t age         # bumped for every root solve so stale entries go first
    bint current_only   # entries of other ages do not count (a table of one goal query at a time)
    uint64_t probes     # probes made
    uint64_t hits       # probes that found their position
    uint64_t stores     # entries written
    uint64_t overwrites # stores that evicted another position of the current age


cdef struct TTKey:
    uint64_t key        # as TTEntry.key
    uint8_t tag         # as TTEntry.tag
    Hand in_play        # the cards in play, to map moves to and from indices
    uint64_t hash       # key and tag mixed: its low bits choose the bucket


cdef extern from *:
    """
    #include <stdlib.h>
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
    #if defined(__linux__)
    #include <sys/mman.h>
    #endif
    #define KOSOLVE_HUGE_PAGE ((size_t)2 << 20)
    /* A table of 2 MB or more is aligned to 2 MB and asks Linux for huge
       pages: a probe then seldom misses the TLB as well as the cache. */
    static void *kosolve_aligned_calloc(size_t n_bytes) {
        void *p = NULL;
    #if defined(_MSC_VER)
        p = _aligned_malloc(n_bytes, 64);
    #else
        size_t alignment = n_bytes >= KOSOLVE_HUGE_PAGE ? KOSOLVE_HUGE_PAGE : 64;
        if (posix_memalign(&p, alignment, n_bytes) != 0) p = NULL;
    #if defined(MADV_HUGEPAGE)
        if (p && alignment == KOSOLVE_HUGE_PAGE) madvise(p, n_bytes, MADV_HUGEPAGE);
    #endif
    #endif
        if (p) memset(p, 0, n_bytes);
        return p;
    }
    #if defined(__GNUC__) || defined(__clang__)
    #define KOSOLVE_PREFETCH(p) __builtin_prefetch(p)
    #else
    #define KOSOLVE_PREFETCH(p) ((void)(p))
    #endif
    static void kosolve_aligned_free(void *p) {
    #if defined(_MSC_VER)
        _aligned_free(p);
    #else
        free(p);
    #endif
    }
    """
    void* aligned_calloc "kosolve_aligned_calloc"(size_t n_bytes) noexcept nogil
    void aligned_free "kosolve_aligned_free"(void* p) noexcept nogil
    void prefetch "KOSOLVE_PREFETCH"(const void* p) noexcept nogil
    const uint64_t* PATTERN_DELTAS "kosolve_pattern_deltas"


cdef inline int tt_allocate(TranspositionTable* tt, size_t n_bytes) except -1:
    """Allocate the largest power-of-two number of buckets within n_bytes."""
    cdef size_t bucket_bytes = BUCKET_ENTRIES * sizeof(TTEntry)
    cdef size_t n = 1
    while n * 2 * bucket_bytes <= n_bytes:
        n *= 2
    tt.entries = <TTEntry*> aligned_calloc(n * bucket_bytes)
    if tt.entries == NULL:
        raise MemoryError(f"cannot allocate a transposition table of {n * bucket_bytes} bytes")
    tt.mask = n - 1
    tt.age = 0
    tt.current_only = False
    tt.probes = tt.hits = tt.stores = tt.overwrites = 0
    return 0


cdef inline void tt_release(TranspositionTable* tt) noexcept nogil:
    aligned_free(tt.entries)
    tt.entries = NULL


cdef inline void tt_clear(TranspositionTable* tt) noexcept nogil:
    memset(tt.entries, 0, (tt.mask + 1) * BUCKET_ENTRIES * sizeof(TTEntry))


cdef inline void tt_new_age(TranspositionTable* tt) noexcept nogil:
    """Start a new solve.  A table that counts only current entries is
    cleared when the age wraps round, so that no entry comes back to life."""
    tt.age = <uint8_t>(tt.age + 1)
    if tt.age == 0 and tt.current_only:
        tt_clear(tt)
        tt.age = 1


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


cdef inline int tt_move(TTKey* key, TTEntry* entry) noexcept nogil:
    """The card of an entry's move in this position, or NO_MOVE."""
    if entry == NULL or entry.move < 0:
        return NO_MOVE
    return lowest_card(scatter_bits(bit(entry.move), key.in_play))


cdef inline TTEntry* tt_bucket(TranspositionTable* tt, TTKey* key) noexcept nogil:
    return tt.entries + (key.hash & tt.mask) * BUCKET_ENTRIES


cdef inline bint tt_matches(TranspositionTable* tt, TTEntry* entry, TTKey* key) noexcept nogil:
    return (entry.depth != 0 and entry.key == key.key and entry.tag == key.tag
            and (entry.age == tt.age or not tt.current_only))


cdef inline void tt_prefetch(TranspositionTable* tt, TTKey* key) noexcept nogil:
    """Start loading the position's bucket; the probe comes a little later."""
    prefetch(tt_bucket(tt, key))


cdef inline TTEntry* tt_probe(TranspositionTable* tt, TTKey* key) noexcept nogil:
    """The entry of the position's key, or NULL."""
    cdef TTEntry* bucket = tt_bucket(tt, key)
    cdef int i
    tt.probes += 1
    for i in range(BUCKET_ENTRIES):
        if tt_matches(tt, bucket + i, key):
            tt.hits += 1
            return bucket + i
    return NULL


cdef inline void tt_store(TranspositionTable* tt, TTKey* key, int value, int beta, int move) noexcept nogil:
    """Record a fail-soft search result: ``value >= beta`` is a lower bound,
    ``value < beta`` an upper bound.  Bounds already known are kept.  ``move``
    is the lead that cut the search off (for either side), or NO_CARD when
    every lead was searched: such a node keeps the move it had.  A new
    position replaces an entry of an earlier solve first, then the one with
    the fewest cards in play."""
    cdef TTEntry* bucket = tt_bucket(tt, key)
    cdef TTEntry* e = NULL
    cdef TTEntry* victim = bucket
    cdef int i
    for i in range(BUCKET_ENTRIES):
        if tt_matches(tt, bucket + i, key):
            e = bucket + i
            break
        if (bucket[i].age != tt.age) > (victim.age != tt.age) or (
                (bucket[i].age != tt.age) == (victim.age != tt.age) and bucket[i].depth < victim.depth):
            victim = bucket + i
    if e == NULL:
        e = victim
        if e.depth and e.age == tt.age:
            tt.overwrites += 1
        e.key = key.key
        e.tag = key.tag
        e.lower = -UNBOUNDED
        e.upper = UNBOUNDED
        e.move = NO_MOVE
    e.depth = <uint8_t>popcount(key.in_play)
    e.age = tt.age
    if value >= beta:
        if value > e.lower:
            e.lower = <int16_t>value
    elif value < e.upper:
        e.upper = <int16_t>value
    if move >= 0:
        e.move = <int8_t>popcount(key.in_play & (bit(move) - 1))
    tt.stores += 1
