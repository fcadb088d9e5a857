# The card layout of kosolve.model.cards, seen from C: hands are 64-bit masks,
# bits 0..31 the four suits a byte each (hearts, diamonds, spades, clubs) and
# bits 32..53 the tarocks, a higher bit always a higher card of its suit.

from libc.stdint cimport uint64_t

ctypedef uint64_t Hand

cdef enum:
    NO_CARD = -1
    PAGAT = 32      # the tarock I, the lowest tarock
    XXI = 52        # the Mond
    SKUS = 53       # the Sküs, the highest card

cdef extern from *:
    """
    #define KOSOLVE_TAROCKS 0x003FFFFF00000000ULL
    /* The birds: the tarocks I to IV. */
    #define KOSOLVE_BIRD_CARDS 0x0000000F00000000ULL
    #define KOSOLVE_SUITS 0x00000000FFFFFFFFULL
    /* The 1-point cards: the four low pips of each suit, the tarocks II..XX;
       the counting cards: J C Q K of each suit, the tarocks I, XXI, Sk. */
    #define KOSOLVE_SUIT_PIPS 0x0F0F0F0FULL
    #define KOSOLVE_MIDDLE_TAROCKS 0x000FFFFE00000000ULL
    #define KOSOLVE_COUNTING_CARDS 0x00300001F0F0F0F0ULL
    /* The card value less one, in three bit planes: plane 0 holds the jacks
       and queens, plane 1 the cavaliers and queens, plane 2 the kings and
       the trull (I, XXI, Sk). */
    #define KOSOLVE_VALUE_PLANE0 0x50505050ULL
    #define KOSOLVE_VALUE_PLANE1 0x60606060ULL
    #define KOSOLVE_VALUE_PLANE2 0x0030000180808080ULL
    /* The cards of each value, 1 to 5 (index 0 unused). */
    static const unsigned long long kosolve_value_classes[6] = {
        0ULL, 0x000FFFFE0F0F0F0FULL, 0x10101010ULL, 0x20202020ULL, 0x40404040ULL, 0x0030000180808080ULL
    };
    /* Counting value of every card, by bit; bits 54..63 are no card. */
    static const unsigned char kosolve_card_values[64] = {
        1, 1, 1, 1, 2, 3, 4, 5, 1, 1, 1, 1, 2, 3, 4, 5, 1, 1, 1, 1, 2, 3, 4, 5, 1, 1, 1, 1, 2, 3, 4, 5, 5, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 5, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
    };
    #if defined(__BMI2__)
    #include <immintrin.h>
    #define KOSOLVE_PEXT(x, m) _pext_u64(x, m)
    #define KOSOLVE_PDEP(x, m) _pdep_u64(x, m)
    #else
    #define KOSOLVE_PEXT(x, m) kosolve_soft_pext(x, m)
    #define KOSOLVE_PDEP(x, m) kosolve_soft_pdep(x, m)
    #endif
    /* Bit gather and scatter without BMI2: one step a bit of the mask. */
    static inline unsigned long long kosolve_soft_pext(unsigned long long x, unsigned long long m) {
        unsigned long long r = 0, k = 1;
        for (; m; m &= m - 1, k <<= 1) if (x & m & -m) r |= k;
        return r;
    }
    static inline unsigned long long kosolve_soft_pdep(unsigned long long x, unsigned long long m) {
        unsigned long long r = 0, k = 1;
        for (; m; m &= m - 1, k <<= 1) if (x & k) r |= m & -m;
        return r;
    }
    #if defined(__GNUC__) || defined(__clang__)
    #define KOSOLVE_POPCOUNT(x) __builtin_popcountll(x)
    #define KOSOLVE_LOWEST(x) __builtin_ctzll(x)
    #define KOSOLVE_HIGHEST(x) (63 - __builtin_clzll(x))
    #else
    #include <intrin.h>
    static __inline int kosolve_lowest(unsigned long long x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
    static __inline int kosolve_highest(unsigned long long x) { unsigned long i; _BitScanReverse64(&i, x); return (int)i; }
    #define KOSOLVE_POPCOUNT(x) ((int)__popcnt64(x))
    #define KOSOLVE_LOWEST(x) kosolve_lowest(x)
    #define KOSOLVE_HIGHEST(x) kosolve_highest(x)
    #endif
    """
    const Hand TAROCKS "KOSOLVE_TAROCKS"
    const Hand BIRD_CARDS "KOSOLVE_BIRD_CARDS"
    const Hand SUITS "KOSOLVE_SUITS"
    const Hand SUIT_PIPS "KOSOLVE_SUIT_PIPS"
    const Hand MIDDLE_TAROCKS "KOSOLVE_MIDDLE_TAROCKS"
    const Hand COUNTING_CARDS "KOSOLVE_COUNTING_CARDS"
    const Hand VALUE_PLANE0 "KOSOLVE_VALUE_PLANE0"
    const Hand VALUE_PLANE1 "KOSOLVE_VALUE_PLANE1"
    const Hand VALUE_PLANE2 "KOSOLVE_VALUE_PLANE2"
    const unsigned char* CARD_VALUES "kosolve_card_values"
    const Hand* VALUE_CLASSES "kosolve_value_classes"
    int popcount "KOSOLVE_POPCOUNT"(Hand x) noexcept nogil
    int lowest_card "KOSOLVE_LOWEST"(Hand x) noexcept nogil
    int highest_card "KOSOLVE_HIGHEST"(Hand x) noexcept nogil
    Hand gather_bits "KOSOLVE_PEXT"(Hand x, Hand mask) noexcept nogil
    Hand scatter_bits "KOSOLVE_PDEP"(Hand x, Hand mask) noexcept nogil
    Hand soft_gather_bits "kosolve_soft_pext"(Hand x, Hand mask) noexcept nogil
    Hand soft_scatter_bits "kosolve_soft_pdep"(Hand x, Hand mask) noexcept nogil


cdef inline Hand bit(int card) noexcept nogil:
    return (<Hand>1) << card


cdef inline Hand lowest_bit(Hand cards) noexcept nogil:
    """The lowest card of ``cards`` as a mask (0 if there is none)."""
    return cards & (~cards + 1)


cdef inline Hand suit_mask(int card) noexcept nogil:
    """All cards of the suit of ``card``."""
    return TAROCKS if card >= 32 else (<Hand>0xFF) << (card & ~7)


cdef inline int card_value(int card) noexcept nogil:
    return CARD_VALUES[card]


cdef inline int pile_thirds(Hand cards) noexcept nogil:
    """What the cards count in thirds: 3 * value sum - 2 * number of cards."""
    return popcount(cards) + 3 * (popcount(cards & VALUE_PLANE0) + 2 * popcount(cards & VALUE_PLANE1)
                                  + 4 * popcount(cards & VALUE_PLANE2))


cdef inline int trick_thirds(int first, int second) noexcept nogil:
    return 3 * (card_value(first) + card_value(second)) - 4


cdef inline bint reply_wins(int led, int reply) noexcept nogil:
    """Whether ``reply`` beats ``led``: the higher tarock, else the higher
    card of the led suit."""
    if reply >= 32:
        return led < 32 or reply > led
    return (reply >> 3) == (led >> 3) and led < 32 and reply > led


cdef inline Hand winning_replies(Hand cards, int led) noexcept nogil:
    """The cards of ``cards`` that beat ``led`` (the mask form of reply_wins)."""
    cdef Hand above = ~((bit(led) << 1) - 1)
    if led >= 32:
        return cards & TAROCKS & above
    return cards & ((suit_mask(led) & above) | TAROCKS)


cdef inline Hand above(Hand cards, Hand other) noexcept nogil:
    """The cards above every card of ``other`` (all of them if it is empty)."""
    return cards & ~(bit(highest_card(other) + 1) - 1) if other else cards


cdef inline Hand legal_replies(Hand hand, int led) noexcept nogil:
    """Follow suit; else play a tarock; else anything."""
    cdef Hand follow = hand & suit_mask(led)
    if follow:
        return follow
    follow = hand & TAROCKS
    return follow if follow else hand


cdef inline int side_to_move(int leader, int led) noexcept nogil:
    return leader if led == NO_CARD else 1 - leader


cdef inline int play_card(Hand* hand, int* leader, int* led, int card) noexcept nogil:
    """Play ``card`` for the side to move: a lead goes to the table, a reply
    completes the trick and its winner leads the next.  The winner of a
    completed trick, else -1."""
    cdef int winner
    if led[0] == NO_CARD:
        hand[leader[0]] ^= bit(card)
        led[0] = card
        return -1
    hand[1 - leader[0]] ^= bit(card)
    winner = 1 - leader[0] if reply_wins(led[0], card) else leader[0]
    leader[0] = winner
    led[0] = NO_CARD
    return winner
