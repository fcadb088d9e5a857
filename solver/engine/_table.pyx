# cython: language_level=3
"""The memory of the transposition tables (``_table.pxd`` is the contract):
their sizes, allocation on aligned huge pages, release and statistics.

Sizes are checked before any arithmetic on them, so that no size can
overflow the byte count or loop for ever: a table has from
:data:`MIN_TABLE_MB` to :data:`MAX_TABLE_MB` megabytes, rounded down to a
power-of-two number of 64-byte buckets.
"""

from libc.stdint cimport uint64_t

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
