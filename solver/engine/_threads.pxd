# Threads for one position: the little the searches need of them, in C.
#
# run_threads(n, task, shared) calls task(shared, i) for i = 0..n-1, part 0 on
# the calling thread and each other part on a POSIX thread of its own, and
# returns when every part is done.  No thread outlives the call, so a process
# may fork between calls (no pool to inherit, unlike OpenMP's libgomp).  A
# thread that cannot be created has its part run on the caller afterwards, and
# where there are no POSIX threads (Windows) every part runs on the caller: the
# parts must be written so that any of them may do all the work (a shared
# queue of tasks), and the answers never depend on how the parts ran.
#
# The shared counters the parts take work from and the bounds they publish are
# ints read and written with atomic operations (relaxed: each is one value,
# and the table's own words are checked, _table.pxd).

cdef extern from *:
    """
    #if !defined(_WIN32)
    #include <pthread.h>
    #define KOSOLVE_HAVE_THREADS 1
    #else
    #define KOSOLVE_HAVE_THREADS 0
    #endif
    #define KOSOLVE_MAX_THREADS 64

    typedef void (*kosolve_task)(void *shared, int part);

    typedef struct {
        kosolve_task task;
        void *shared;
        int part;
    } kosolve_part;

    #if KOSOLVE_HAVE_THREADS
    static void *kosolve_part_main(void *arg) {
        kosolve_part *p = (kosolve_part *)arg;
        p->task(p->shared, p->part);
        return NULL;
    }
    #endif

    static void kosolve_run_threads(int n, kosolve_task task, void *shared) {
        kosolve_part parts[KOSOLVE_MAX_THREADS];
        int i;
    #if KOSOLVE_HAVE_THREADS
        pthread_t ids[KOSOLVE_MAX_THREADS];
        int started[KOSOLVE_MAX_THREADS];
    #endif
        if (n > KOSOLVE_MAX_THREADS) n = KOSOLVE_MAX_THREADS;
        for (i = 0; i < n; i++) {
            parts[i].task = task;
            parts[i].shared = shared;
            parts[i].part = i;
        }
    #if KOSOLVE_HAVE_THREADS
        for (i = 1; i < n; i++)
            started[i] = pthread_create(&ids[i], NULL, kosolve_part_main, &parts[i]) == 0;
        task(shared, 0);
        for (i = 1; i < n; i++) {
            if (started[i]) pthread_join(ids[i], NULL);
            else task(shared, i);
        }
    #else
        for (i = 0; i < n; i++) task(shared, i);
    #endif
    }

    #if defined(__GNUC__) || defined(__clang__)
    #define KOSOLVE_TAKE(p) __atomic_fetch_add((p), 1, __ATOMIC_RELAXED)
    #define KOSOLVE_LOAD_INT(p) __atomic_load_n((p), __ATOMIC_RELAXED)
    #define KOSOLVE_STORE_INT(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
    static int kosolve_cas_int(int *p, int expected, int value) {
        return __atomic_compare_exchange_n(p, &expected, value, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    }
    #else
    /* Without the builtins there are no threads either (above). */
    static int kosolve_take(int *p) { return (*p)++; }
    #define KOSOLVE_TAKE(p) kosolve_take(p)
    #define KOSOLVE_LOAD_INT(p) (*(p))
    #define KOSOLVE_STORE_INT(p, v) (*(p) = (v))
    static int kosolve_cas_int(int *p, int expected, int value) {
        if (*p != expected) return 0;
        *p = value;
        return 1;
    }
    #endif
    """
    enum:
        MAX_THREADS "KOSOLVE_MAX_THREADS"    # the most threads a search runs
        HAVE_THREADS "KOSOLVE_HAVE_THREADS"  # 0 where the parts run one after another
    ctypedef void (*Task)(void* shared, int part) noexcept nogil
    void run_threads "kosolve_run_threads"(int n, Task task, void* shared) noexcept nogil
    int take "KOSOLVE_TAKE"(int* counter) noexcept nogil
    int load_int "KOSOLVE_LOAD_INT"(int* p) noexcept nogil
    void store_int "KOSOLVE_STORE_INT"(int* p, int value) noexcept nogil
    bint cas_int "kosolve_cas_int"(int* p, int expected, int value) noexcept nogil


cdef inline void fold_shared(int* best, int value, bint maximizing) noexcept nogil:
    """Raise (maximizing) or lower a bound that other threads fold into too."""
    cdef int seen = load_int(best)
    while (value > seen) if maximizing else (value < seen):
        if cas_int(best, seen, value):
            return
        seen = load_int(best)
