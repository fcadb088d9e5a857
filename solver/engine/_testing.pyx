# cython: language_level=3
"""Python views of the engine's C pieces, for the tests only.

An extension of its own, so that the production extensions (``_table``,
``_search``, ``_score``) hold nothing that only the tests call.  It reaches
the pieces it exercises through their ``.pxd`` contracts, as any module of
the engine does, so it checks what the searches compile against.
"""

from libc.stdint cimport int8_t, uint8_t, uint64_t
from libc.string cimport memcpy

from kosolve.engine._bits cimport (
    NO_CARD, Hand, bit, card_value, gather_bits, legal_replies, pile_thirds, reply_wins, scatter_bits, soft_gather_bits,
    soft_scatter_bits, winning_replies,
)
from kosolve.engine._lookalike cimport (
    LookAlikeEntry, LookAlikeTable, lookalike_allocate, lookalike_bound, lookalike_key, lookalike_release,
    lookalike_slot, lookalike_store,
)
from kosolve.engine._movegen cimport (
    MAX_MOVES, lead_candidates, order_leads, order_replies, reply_candidates, representatives, settled_leads,
    settled_replies, write_moves,
)
from kosolve.engine._score cimport (
    LEAVES, SCORE_KEY_WORDS, STEPS, Frame, ScoreKey, ScoreSolver, ScoreState, bird_state, by_thirds, frame_of,
    leaf_score, score_key,
)
from kosolve.engine._table cimport (
    NO_MOVE, UNBOUNDED, Slot, Table, table_allocate, table_clear, table_probe, table_release, table_store, table_view,
)
from kosolve.engine._threads cimport MAX_THREADS, run_threads
from kosolve.engine._tt cimport TTKey, pattern_of, tt_holder, tt_key, tt_key_without, tt_pattern

from kosolve.engine._table import MIN_TABLE_MB


# Cards and tricks (_bits.pxd) and move ordering (_movegen.pxd).

def _py_card_value(int card):
    return card_value(card)


def _py_pile_thirds(Hand cards):
    return pile_thirds(cards)


def _py_reply_wins(int led, int reply):
    return reply_wins(led, reply)


def _py_legal_replies(Hand hand, int led):
    return legal_replies(hand, led)


def _py_winning_replies(Hand hand, int led):
    return winning_replies(hand, led)


def _py_representatives(Hand candidates, Hand in_play, Hand alone=0):
    cdef int8_t moves[MAX_MOVES]
    cdef int n = representatives(candidates, in_play, alone, moves)
    return [moves[i] for i in range(n)]


def _py_order_leads(Hand own, Hand opponent, int first=NO_CARD, bint declarer=True):
    cdef int8_t moves[MAX_MOVES]
    cdef int n = order_leads(lead_candidates(own, opponent, 0), own, opponent, first, moves, declarer)
    return [moves[i] for i in range(n)]


def _py_settled_leads(Hand own, Hand opponent, Hand alone=0):
    """The leads the search tries below the root, lowest first."""
    cdef int8_t moves[MAX_MOVES]
    cdef int n = write_moves(settled_leads(lead_candidates(own, opponent, alone), own, opponent, alone), moves)
    return [moves[i] for i in range(n)]


def _py_settled_replies(Hand own, Hand leader_hand, int led, Hand alone=0):
    """The replies the search tries below the root, lowest first."""
    cdef int8_t moves[MAX_MOVES]
    cdef Hand legal = legal_replies(own, led)
    cdef Hand kept = settled_replies(reply_candidates(legal, own | leader_hand | bit(led), alone), legal, leader_hand,
                                     led, alone)
    return [moves[i] for i in range(write_moves(kept, moves))]


def _py_order_replies(Hand legal, Hand in_play, int led):
    cdef int8_t moves[MAX_MOVES]
    cdef int n = order_replies(legal, in_play, led, 0, moves)
    return [moves[i] for i in range(n)]


def _py_lookalike_bounds(Hand stored_forehand, Hand stored_dealer, Hand forehand, Hand dealer, int lower, int upper):
    """The bounds a look-alike table holding [lower, upper] for the stored
    position gives the other (both led by the forehand, declared by him),
    or None when the two do not look alike: (shifted lower, shifted upper)."""
    cdef LookAlikeTable table
    cdef LookAlikeEntry* entry
    cdef TTKey stored_tt, tt
    cdef Hand stored_in_play = stored_forehand | stored_dealer, in_play = forehand | dealer
    tt_key(&stored_tt, stored_forehand, stored_dealer, 0, 0, 0)
    tt_key(&tt, forehand, dealer, 0, 0, 0)
    cdef uint64_t stored_key = lookalike_key(tt_holder(&stored_tt), stored_in_play, 0, 0)
    cdef uint64_t key = lookalike_key(tt_holder(&tt), in_play, 0, 0)
    cdef int bound
    if stored_key != key:
        return None
    table.entries = NULL
    lookalike_allocate(&table)
    entry = lookalike_slot(&table, stored_key)
    lookalike_store(entry, stored_key, tt_pattern(&stored_tt), lower, lower, pile_thirds(stored_in_play))
    lookalike_store(entry, stored_key, tt_pattern(&stored_tt), upper, upper + 1, pile_thirds(stored_in_play))
    try:
        # The least beta the lower bound decides, and the greatest the upper does.
        shifted_lower = max(beta for beta in range(-700, 700) if lookalike_bound(entry, key, tt_pattern(&tt), beta,
                                                                                  &bound) and bound >= beta)
        shifted_upper = min(beta for beta in range(-700, 700) if lookalike_bound(entry, key, tt_pattern(&tt),
                                                                                  beta + 1, &bound) and bound <= beta)
        return shifted_lower, shifted_upper
    finally:
        lookalike_release(&table)


def _py_gather_bits(Hand x, Hand mask):
    return gather_bits(x, mask)


def _py_scatter_bits(Hand x, Hand mask):
    return scatter_bits(x, mask)


def _py_soft_gather_bits(Hand x, Hand mask):
    return soft_gather_bits(x, mask)


def _py_soft_scatter_bits(Hand x, Hand mask):
    return soft_scatter_bits(x, mask)


# The point search's table keys (_tt.pxd).

def _py_tt_key(Hand forehand, Hand dealer, int leader, int declarer):
    cdef TTKey key
    tt_key(&key, forehand, dealer, leader, declarer, 0)
    return key.key, key.tag, key.in_play


def _py_tt_key_without(Hand forehand, Hand dealer, int card, int leader, int declarer):
    cdef TTKey key
    tt_key_without(&key, forehand, dealer, pattern_of(forehand | dealer), card, leader, declarer)
    return key.key, key.tag, key.in_play


# The table without locks (_table.pxd): many threads probing and storing one
# small table at once, and entries torn on purpose.

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


# The score search (_score.pxd).

def _py_bird_state(int birds, int card, int seat, int winner, int cards):
    return bird_state(birds, card, seat, winner, cards)


def _py_leaf_score(int thirds, steps, int birds, int valat, leaf):
    """The leaf a finished hand with these states looks up."""
    cdef ScoreState s
    cdef int table[LEAVES]
    for i in range(LEAVES):
        table[i] = leaf[i]
    s.thirds, s.birds, s.valat, s.leaf = thirds, birds, valat, table
    for i in range(STEPS):
        s.steps[i] = steps[i]
    return leaf_score(&s)


def _py_root_key(ScoreSolver solver, Hand forehand, Hand dealer, int leader, int declarer, steps, int birds,
                 int valat, leaf):
    """The score key's words at a position at a trick boundary, set up on
    ``solver`` as its queries are."""
    cdef ScoreKey key
    cdef Hand in_play = forehand | dealer
    cdef Frame* frame
    solver._set(forehand, dealer, leader, declarer, NO_CARD, steps, birds, valat, leaf, True)
    frame = frame_of(&solver.state, in_play)
    score_key(&key, &solver.state, frame, in_play, pile_thirds(in_play), by_thirds(&solver.state, frame), 0)
    return tuple(key.words[i] for i in range(SCORE_KEY_WORDS))
