# The transposition table both searches share: a fixed block of 64-byte
# buckets, one cache line a probe, each bucket a few entries of one size.
#
# An entry is its search's key (one or more 64-bit words) followed by a Slot,
# the part both searches store alike, one 64-bit word:
#
#   offset (from the slot)  size  field
#        0                     2  lower   lower bound on the value searched
#        2                     2  upper   upper bound
#        4                     1  move    a card as its index among the cards in play (move_hint); -1 if none
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
# Threads share one table without locks (docs/search.md, "Threads").  Each
# word is read and written whole (one aligned 64-bit access, which cannot
# tear), but an entry is several words, and two threads may write the same
# entry at once: a probe could see the key words of one store and the slot of
# another.  So each key word is stored XOR the slot word, and a probe takes an
# entry only if every stored word XOR the slot it read gives its key word
# back: a mixed entry reads as another position, a miss.  A probe copies the
# slot out (table_probe's ``found``), so nothing the caller reads can change
# under it.  A store is a read, a merge of bounds and a write, so two threads
# storing the same position at once may lose one's bounds: never an answer,
# since every bound stored is true of its position.  The counters are the
# Table's own, so each thread searches through a Table of its own that shares
# the buckets (table_view) and adds its counters back when it is done.
#
# Allocation, release and the statistics live in _table.pyx; the probe and the
# store are inline here, called with the key's length as a constant so that
# the compiler unrolls them for each search.

from libc.stdint cimport int16_t, int8_t, uint8_t, uint64_t
from libc.string cimport memcpy, memset

from kosolve.engine._bits cimport NO_CARD, Hand, bit, lowest_card, popcount, scatter_bits


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


cdef extern from *:
    """
    #include <stdint.h>
    /* Whole-word reads and writes of the table: relaxed atomics, which are
       plain moves on x86-64 and ARM64, so that the compiler neither splits
       nor merges them and two threads may touch one word at once. */
    #if defined(__GNUC__) || defined(__clang__)
    #define KOSOLVE_LOAD64(p) __atomic_load_n((const uint64_t*)(p), __ATOMIC_RELAXED)
    #define KOSOLVE_STORE64(p, v) __atomic_store_n((uint64_t*)(p), (uint64_t)(v), __ATOMIC_RELAXED)
    #else
    #define KOSOLVE_LOAD64(p) (*(const volatile uint64_t*)(p))
    #define KOSOLVE_STORE64(p, v) (*(volatile uint64_t*)(p) = (uint64_t)(v))
    #endif
    """
    uint64_t load64 "KOSOLVE_LOAD64"(const void* p) noexcept nogil
    void store64 "KOSOLVE_STORE64"(void* p, uint64_t value) noexcept nogil


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


cdef inline Table table_view(Table* table) noexcept nogil:
    """A Table for one thread: the same buckets and age, counters from zero."""
    cdef Table view = table[0]
    view.probes = view.hits = view.stores = view.overwrites = 0
    return view


cdef inline void table_add_counts(Table* table, Table* view) noexcept nogil:
    """Add a thread's counters (table_view) back into the table."""
    table.probes += view.probes
    table.hits += view.hits
    table.stores += view.stores
    table.overwrites += view.overwrites


cdef inline uint64_t slot_word(Slot slot) noexcept nogil:
    cdef uint64_t word
    memcpy(&word, &slot, sizeof(Slot))
    return word


cdef inline Slot word_slot(uint64_t word) noexcept nogil:
    cdef Slot slot
    memcpy(&slot, &word, sizeof(Slot))
    return slot


cdef inline int move_hint(Hand in_play, int card) noexcept nogil:
    """The slot's move hint for ``card`` (NO_MOVE for NO_CARD): its index
    among the cards in play, not the card itself, since both searches key
    positions by pattern, and positions that share an entry may hold other
    low cards; the index names the card of the same rank in each of them."""
    return popcount(in_play & (bit(card) - 1)) if card >= 0 else NO_MOVE


cdef inline int hint_card(Hand in_play, int hint) noexcept nogil:
    """The card a move hint names among the cards in play, or NO_CARD."""
    return lowest_card(scatter_bits(bit(hint), in_play)) if hint >= 0 else NO_CARD


cdef inline bint key_matches(const char* entry, uint64_t data, const uint64_t* key, int key_words) noexcept nogil:
    """Whether an entry whose slot word reads ``data`` holds this key, whole
    (see the notes above: a mixed entry is a miss)."""
    cdef int w
    for w in range(key_words):
        if load64(entry + 8 * w) ^ data != key[w]:
            return False
    return True


cdef inline bint slot_matches(Table* table, Slot slot, uint8_t tag) noexcept nogil:
    """Whether a slot whose key words matched is the position's and counts."""
    return slot.depth != 0 and slot.tag == tag and (slot.age == table.age or not table.current_only)


cdef inline Slot* table_probe(Table* table, const uint64_t* key, int key_words, uint8_t tag, uint64_t hash,
                              Slot* found) noexcept nogil:
    """Copy the slot of the position with this key into ``found`` and
    return ``found``; NULL if the table does not hold the position."""
    cdef char* bucket = table_bucket(table, hash)
    cdef const char* entry
    cdef uint64_t data
    cdef Slot slot
    cdef int i
    table.probes += 1
    for i in range(BUCKET_BYTES // (8 * key_words + sizeof(Slot))):
        entry = bucket + i * (8 * key_words + sizeof(Slot))
        data = load64(entry + 8 * key_words)
        # The key words first: most entries of a bucket are other positions,
        # and the words tell them apart at once (the tag seldom does), which
        # keeps the branches predictable.
        if key_matches(entry, data, key, key_words):
            slot = word_slot(data)
            if slot_matches(table, slot, tag):
                table.hits += 1
                found[0] = slot
                return found
    return NULL


cdef inline void table_store(Table* table, const uint64_t* key, int key_words, uint8_t tag, uint64_t hash,
                             int depth, int value, int beta, int move) noexcept nogil:
    """Record a fail-soft search result: ``value >= beta`` is a lower bound,
    ``value < beta`` an upper bound; bounds already known are kept.  A new
    position replaces an entry of an earlier age first, then the one with
    the fewest cards in play (``depth``), and starts without a move.
    ``move`` (>= 0) replaces the move hint; NO_MOVE keeps the one the entry
    has.  The entry is written whole, its key words XOR its slot."""
    cdef char* bucket = table_bucket(table, hash)
    cdef int entry_bytes = 8 * key_words + sizeof(Slot)
    cdef char* entry = NULL
    cdef char* victim = bucket
    cdef Slot slot, other, victim_slot
    cdef uint64_t data
    cdef int i, w
    cdef bint found = False
    for i in range(BUCKET_BYTES // (8 * key_words + sizeof(Slot))):
        entry = bucket + i * entry_bytes
        data = load64(entry + 8 * key_words)
        other = word_slot(data)
        if key_matches(entry, data, key, key_words) and slot_matches(table, other, tag):
            slot, found = other, True
            break
        if i == 0 or (other.age != table.age) > (victim_slot.age != table.age) or (
                (other.age != table.age) == (victim_slot.age != table.age) and other.depth < victim_slot.depth):
            victim, victim_slot = entry, other
    if not found:
        entry, slot = victim, victim_slot
        if slot.depth and slot.age == table.age:
            table.overwrites += 1
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
    if move >= 0:
        slot.move = <int8_t>move
    data = slot_word(slot)
    for w in range(key_words):
        store64(entry + 8 * w, key[w] ^ data)
    store64(entry + 8 * key_words, data)
    table.stores += 1
