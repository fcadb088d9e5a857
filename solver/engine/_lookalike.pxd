# Bounds from look-alike positions (Speed III; the payoff similarity of
# Furtak and Buro, "Using Payoff-Similarity to Speed Up Search", IJCAI 2011).
#
# Two positions at a trick boundary with the same number of cards in play in
# each suit and in the tarocks, the forehand holding the same places among
# them (the i-th card in play in card order), and the same leader and
# declarer are the same game but for what the cards count: map the i-th card
# of each suit of one onto the i-th of the other and every line of one is a
# line of the other with the same trick winners.  Their values differ by at
# most what the mapped cards' values differ: the value of one is at most the
# other's plus 3 × the sum of the positive differences (in thirds), and at
# least the other's plus 3 × the sum of the negative ones.  So a bound stored
# for one position, shifted so, bounds every look-alike.  The point search's
# table (_tt.pxd) keeps ranks exact and names the counting cards; this table
# lets one position's proof serve the positions that differ from it only in
# which counting cards are in play.
#
# One table for all the threads of a solver, direct-mapped, 16-byte
# entries of two 64-bit words:
#
#   offset  size  field
#        0     8  the key XOR the data word: holder (bits 0..31: the forehand holds the i-th
#                 card in play) | cards in play of each suit (4 bits each, bits 32..47) and of
#                 the tarocks (5 bits, 48..52) | leader << 53 | declarer << 54 | 1 << 55 (so
#                 that an empty entry, all zero, matches no key)
#        8     8  data: the stored position's pattern (bits 0..35; _tt.pxd: its counting
#                 cards, its pips of each suit, its number of tarocks II..XX) | lower bound on
#                 the declarer's future thirds << 36 | upper bound << 44
#
# Threads read and write each word whole (_table.pxd's load64 and store64);
# the first word is the key XOR the data, so a probe that sees the words of
# two stores takes the entry for another position's, a miss (the main
# table's way: _table.pxd).  A store is a read, a merge and a write, so two
# threads storing at once may lose one's bound: never an answer, since
# every bound stored is true of its position.
#
# A new position replaces the entry of its slot.  The search calls only
# lookalike_key, lookalike_slot, lookalike_bound and lookalike_store.

from libc.stdint cimport uint32_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memset

from kosolve.engine._bits cimport TAROCKS, Hand, lowest_card, popcount
from kosolve.engine._table cimport load64, store64


cdef extern from *:
    """
    #define KOSOLVE_PATTERN_MASK 0xFFFFFFFFFULL
    """
    const uint64_t PATTERN_MASK "KOSOLVE_PATTERN_MASK"


cdef enum:
    LOOKALIKE_BITS = 15         # 32,768 entries, 512 KB: the size that paid best (benchmarks-history.md, "Speed III")
    LOOKALIKE_FROM_CARDS = 5    # the search uses the table at trick boundaries with 5 ...
    LOOKALIKE_TO_CARDS = 13     # ... to 13 cards a hand (measured: benchmarks-history.md, "Speed III")


cdef struct LookAlikeEntry:
    uint64_t words[2]           # key XOR data, data: pattern | lower << 36 | upper << 44


cdef struct LookAlikeTable:
    LookAlikeEntry* entries     # 1 << LOOKALIKE_BITS of them, owned by a solver; NULL before allocation


cdef inline int lookalike_allocate(LookAlikeTable* table) except -1:
    if table.entries == NULL:
        table.entries = <LookAlikeEntry*>calloc(1 << LOOKALIKE_BITS, sizeof(LookAlikeEntry))
        if table.entries == NULL:
            raise MemoryError("no memory for the look-alike table")
    return 0


cdef inline void lookalike_release(LookAlikeTable* table) noexcept nogil:
    free(table.entries)
    table.entries = NULL


cdef inline void lookalike_clear(LookAlikeTable* table) noexcept nogil:
    if table.entries != NULL:
        memset(table.entries, 0, (1 << LOOKALIKE_BITS) * sizeof(LookAlikeEntry))


cdef inline uint64_t lookalike_key(uint64_t holder, Hand in_play, int leader, int declarer) noexcept nogil:
    """The key of a position at a trick boundary: what it shares with its
    look-alikes.  ``holder``: its table key's holder bits (_tt.pxd's
    tt_holder)."""
    return (holder
            | <uint64_t>popcount(in_play & <Hand>0xFF) << 32
            | <uint64_t>popcount(in_play & <Hand>0xFF00) << 36
            | <uint64_t>popcount(in_play & <Hand>0xFF0000) << 40
            | <uint64_t>popcount(in_play & <Hand>0xFF000000) << 44
            | <uint64_t>popcount(in_play & TAROCKS) << 48
            | <uint64_t>leader << 53 | <uint64_t>declarer << 54 | <uint64_t>1 << 55)


cdef inline LookAlikeEntry* lookalike_slot(LookAlikeTable* table, uint64_t key) noexcept nogil:
    return &table.entries[(key * <uint64_t>0x9E3779B97F4A7C15ULL) >> (64 - LOOKALIKE_BITS)]


cdef inline void suit_shift(uint64_t stored, uint64_t pattern, int suit, int* up, int* down) noexcept nogil:
    """Add what the i-th cards of ``suit`` (0..3) differ by, stored position
    against this one, to ``up`` (where this one's is worth more) and
    ``down`` (less), in points.  A suit's cards by rank: its pips (1 point)
    and then its counting cards J, C, Q, K (2 to 5) in play."""
    cdef int pips_stored = (stored >> (19 + 3 * suit)) & 7
    cdef int pips_now = (pattern >> (19 + 3 * suit)) & 7
    cdef uint64_t court_stored = (stored >> (4 * suit)) & 0xF
    cdef uint64_t court_now = (pattern >> (4 * suit)) & 0xF
    cdef int i, value_stored, value_now
    if pips_stored == pips_now and court_stored == court_now:
        return
    for i in range(pips_now + popcount(court_now)):
        if i < pips_stored:
            value_stored = 1
        else:
            value_stored = 2 + lowest_card(court_stored)
            court_stored &= court_stored - 1
        if i < pips_now:
            value_now = 1
        else:
            value_now = 2 + lowest_card(court_now)
            court_now &= court_now - 1
        if value_now > value_stored:
            up[0] += value_now - value_stored
        else:
            down[0] += value_stored - value_now


cdef inline uint32_t tarock_fives(uint64_t pattern, int cards) noexcept nogil:
    """The places (by rank, lowest 0) of the 5-point tarocks among the
    ``cards`` tarocks in play: I the lowest, XXI and Sk the highest."""
    cdef int top = ((pattern >> 17) & 1) + ((pattern >> 18) & 1)
    return <uint32_t>((pattern >> 16) & 1) | (((<uint32_t>1 << top) - 1) << (cards - top))


cdef inline bint lookalike_bound(LookAlikeEntry* entry, uint64_t key, uint64_t pattern, int beta,
                                 int* bound) noexcept nogil:
    """Whether the entry, a look-alike's (or the position's own), decides the
    null window ``beta`` for the position of ``key`` and ``pattern``; if so
    ``bound`` is the shifted bound, fail-soft."""
    cdef uint64_t data = load64(&entry.words[1])
    cdef uint64_t stored
    cdef int up = 0, down = 0, suit, tarocks, lower, upper
    cdef uint32_t fives_stored, fives_now
    if load64(&entry.words[0]) ^ data != key:
        return False
    stored = data & PATTERN_MASK
    lower, upper = (data >> 36) & 0xFF, (data >> 44) & 0xFF
    if stored != pattern:
        for suit in range(4):
            suit_shift(stored, pattern, suit, &up, &down)
        tarocks = <int>(key >> 48) & 0x1F
        fives_stored, fives_now = tarock_fives(stored, tarocks), tarock_fives(pattern, tarocks)
        up += 4 * popcount(fives_now & ~fives_stored)
        down += 4 * popcount(fives_stored & ~fives_now)
    if lower - 3 * down >= beta:
        bound[0] = lower - 3 * down
        return True
    if upper + 3 * up < beta:
        bound[0] = upper + 3 * up
        return True
    return False


cdef inline void lookalike_store(LookAlikeEntry* entry, uint64_t key, uint64_t pattern, int value, int beta,
                                 int thirds) noexcept nogil:
    """Record a fail-soft result of the position of ``key`` and ``pattern``
    (``thirds`` in play): a bound already known for it is kept, a look-alike's
    entry replaced."""
    cdef uint64_t data = load64(&entry.words[1])
    cdef int lower = 0, upper = thirds
    if load64(&entry.words[0]) ^ data == key and data & PATTERN_MASK == pattern:
        lower, upper = (data >> 36) & 0xFF, (data >> 44) & 0xFF
    if value >= beta:
        lower = max(lower, value)
    else:
        upper = min(upper, value)
    data = pattern | <uint64_t>lower << 36 | <uint64_t>upper << 44
    store64(&entry.words[0], key ^ data)
    store64(&entry.words[1], data)
