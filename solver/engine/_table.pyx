# cython: language_level=3
"""The memory of the transposition tables (``_table.pxd`` is the contract):
their sizes, allocation on aligned huge pages, release and statistics.

Sizes are checked before any arithmetic on them, so that no size can
overflow the byte count or loop for ever: a table has from
:data:`MIN_TABLE_MB` to :data:`MAX_TABLE_MB` megabytes, rounded down to a
power-of-two number of 64-byte buckets.
"""

from libc.stdint cimport uint8_t, uint64_t

from libc.string cimport memcpy

from kosolve.engine._threads cimport MAX_THREADS, run_threads

from kosolve.engine import memory

MIN_TABLE_MB = 1.0 / 1024
"""A kilobyte, sixteen buckets: the tests solve with tables this small, so
that nearly every store evicts another entry."""
MAX_TABLE_MB = 16384.0
"""16 GB: beyond any machine this runs on, and far beyond what a solve
stores (a whole deal: a few hundred thousand positions)."""


class TableSizeError(ValueError):
    """A table size outside [MIN_TABLE_MB, MAX_TABLE_MB] (or not a number)."""


class TableMemoryError(MemoryError):
    """A table larger than the memory this process may still take
    (:func:`kosolve.engine.memory.available_bytes`): refused before a byte
    of it is committed."""


cdef extern from *:
    """
    #include <stdlib.h>
    #include <string.h>
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


def check_table_mb(double mb):
    """``mb`` if it is a table size the engine takes, else :class:`TableSizeError`."""
    if not MIN_TABLE_MB <= mb <= MAX_TABLE_MB:  # also refuses NaN
        raise TableSizeError(f"a table has {MIN_TABLE_MB * 1024:g} KB to {MAX_TABLE_MB:g} MB, not {mb:g} MB")
    return mb


def buckets_for(double mb):
    """The number of buckets a table of ``mb`` megabytes gets: the largest
    power of two whose buckets fit in it."""
    check_table_mb(mb)
    # Up to MAX_TABLE_MB the byte count fits in 35 bits: no overflow below.
    cdef uint64_t fit = <uint64_t>(mb * 1024 * 1024) // BUCKET_BYTES
    cdef uint64_t n = 1
    while n <= fit // 2:
        n *= 2
    return n


cdef int table_allocate(Table* table, double mb, int key_words, bint current_only) except -1:
    """Allocate a table of ``mb`` megabytes (rounded down to a power-of-two
    number of buckets) whose entries have ``key_words`` key words."""
    cdef uint64_t n = buckets_for(mb)
    available = memory.available_bytes()
    if available is not None and n * BUCKET_BYTES > available:
        raise TableMemoryError(
            f"a table of {n * BUCKET_BYTES / 2**20:g} MB is more than the {available / 2**20:,.0f} MB"
            " of memory available"
        )
    table.buckets = <char*>aligned_calloc(n * BUCKET_BYTES)
    if table.buckets == NULL:
        raise MemoryError(f"cannot allocate a transposition table of {n * BUCKET_BYTES} bytes")
    table.mask = n - 1
    table.age = 0
    table.current_only = current_only
    table.probes = table.hits = table.stores = table.overwrites = 0
    table.entry_bytes = 8 * key_words + sizeof(Slot)
    return 0


cdef void table_release(Table* table) noexcept nogil:
    aligned_free(table.buckets)
    table.buckets = NULL


cdef dict table_stats(Table* table):
    """The table's counters and size, as in ``Solver.stats``."""
    return {
        "tt_probes": table.probes,
        "tt_hits": table.hits,
        "tt_stores": table.stores,
        "tt_overwrites": table.overwrites,
        "tt_entries": (table.mask + 1) * (BUCKET_BYTES // table.entry_bytes),
        "tt_bytes": table_bytes(table),
    }


# Test-only: many threads probing and storing one small table at once.

cdef struct Stress:
    Table* table
    int key_words
    int keys            # the keys are 1..keys
    int rounds          # probes and stores per thread
    Table views[MAX_THREADS]
    uint64_t hits[MAX_THREADS]
    uint64_t wrong[MAX_THREADS]


cdef inline void stress_key(uint64_t k, uint64_t* words) noexcept nogil:
    cdef int w
    for w in range(3):
        words[w] = (k + <uint64_t>w) * <uint64_t>0x9E3779B97F4A7C15ULL


cdef void stress_part(void* shared, int part) noexcept nogil:
    """Store for key k only the bounds 10 k (lower) and 10 k + 5 (upper) and
    the move k % 100; a probe that finds k with anything else has read a
    torn entry.  All keys crowd into two buckets."""
    cdef Stress* stress = <Stress*>shared
    cdef Table* view = &stress.views[part]
    cdef uint64_t state = <uint64_t>(part + 1) * <uint64_t>0x2545F4914F6CDD1DULL
    cdef uint64_t words[3]
    cdef uint64_t k
    cdef int r, lower, upper, move
    cdef Slot found
    cdef Slot* slot
    for r in range(stress.rounds):
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        k = 1 + state % <uint64_t>stress.keys
        stress_key(k, words)
        lower, upper, move = <int>(10 * k), <int>(10 * k + 5), <int>(k % 100)
        if state >> 40 & 1:
            slot = table_probe(view, words, stress.key_words, <uint8_t>k, k & 1, &found)
            if slot != NULL:
                stress.hits[part] += 1
                if not (slot.lower in (-UNBOUNDED, lower) and slot.upper in (UNBOUNDED, upper)
                        and slot.move in (NO_MOVE, move) and slot.depth == 1 + k % 30):
                    stress.wrong[part] += 1
        elif state >> 41 & 1:
            table_store(view, words, stress.key_words, <uint8_t>k, k & 1, 1 + <int>(k % 30), lower, lower, move)
        else:
            table_store(view, words, stress.key_words, <uint8_t>k, k & 1, 1 + <int>(k % 30), upper, upper + 1,
                        NO_MOVE)


def _py_table_stress(int threads, int key_words, int keys, int rounds):
    """``(hits, wrong)``: probes that found their key, and of those the ones
    that read a slot no store for that key wrote (a torn entry)."""
    cdef Table table
    cdef Stress stress
    cdef int t
    if not 1 <= threads <= MAX_THREADS or key_words not in (1, 3):
        raise ValueError("1 to MAX_THREADS threads, 1 or 3 key words")
    table_allocate(&table, MIN_TABLE_MB, key_words, False)
    table.age = 1
    stress.table, stress.key_words, stress.keys, stress.rounds = &table, key_words, keys, rounds
    for t in range(threads):
        stress.views[t] = table_view(&table)
        stress.hits[t] = stress.wrong[t] = 0
    with nogil:
        run_threads(threads, stress_part, &stress)
    table_release(&table)
    return sum(stress.hits[t] for t in range(threads)), sum(stress.wrong[t] for t in range(threads))


def _py_mixed_entry_hits(int key_words):
    """Probes that take an entry made of one store's key words and another
    store's slot (a torn write) for either position: 0 when the check works.
    Two positions A and B, the same tag and depth, are stored in turn in
    the same entry; the entry is then rebuilt both ways across."""
    cdef Table table
    cdef uint64_t a[3]
    cdef uint64_t b[3]
    cdef uint64_t saved_a[4]
    cdef uint64_t saved_b[4]
    cdef Slot found
    cdef int w, hits = 0, words = key_words + 1
    cdef uint64_t* words_of
    cdef uint64_t* slot_of
    if key_words not in (1, 3):
        raise ValueError("1 or 3 key words")
    stress_key(1, a)
    stress_key(2, b)
    table_allocate(&table, MIN_TABLE_MB, key_words, False)
    table.age = 1
    table_store(&table, a, key_words, 7, 0, 5, 10, 10, 1)
    memcpy(saved_a, table.buckets, 8 * words)
    table_clear(&table)
    table_store(&table, b, key_words, 7, 0, 5, 20, 20, 2)
    memcpy(saved_b, table.buckets, 8 * words)
    if table_probe(&table, b, key_words, 7, 0, &found) == NULL or found.lower != 20:
        table_release(&table)
        raise AssertionError("a whole entry was not found")
    for w in range(2):
        # The key words of one store, the slot of the other.
        words_of, slot_of = (&saved_a[0], &saved_b[0]) if w == 0 else (&saved_b[0], &saved_a[0])
        memcpy(table.buckets, words_of, 8 * key_words)
        memcpy(table.buckets + 8 * key_words, slot_of + key_words, 8)
        hits += table_probe(&table, a, key_words, 7, 0, &found) != NULL
        hits += table_probe(&table, b, key_words, 7, 0, &found) != NULL
    table_release(&table)
    return hits
