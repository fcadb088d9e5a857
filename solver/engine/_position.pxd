# The checks both solvers make of a position before they drop the GIL: the
# searches under them trust their masks and would read past their arrays or
# loop on a position that cannot arise.

from kosolve.engine._bits cimport NO_CARD, Hand, popcount


cdef inline str position_problem(Hand forehand, Hand dealer, int leader, int declarer, int led):
    """What is wrong with the position, or None when the hands are disjoint
    sets of the 54 cards, the seats are seats and the hands' sizes and the
    led card fit together.  The caller raises: a .pxd cannot import the
    error class."""
    cdef int lead_count, follow_count
    if (forehand | dealer) >> 54 or forehand & dealer:
        return "the hands must be disjoint sets of the 54 cards"
    if leader not in (0, 1) or declarer not in (0, 1):
        return "leader and declarer are seats: 0 (forehand) or 1 (dealer)"
    lead_count = popcount(forehand if leader == 0 else dealer)
    follow_count = popcount(dealer if leader == 0 else forehand)
    if led == NO_CARD:
        if lead_count != follow_count:
            return "at a trick boundary both hands must hold as many cards"
    elif not 0 <= led < 54 or (forehand | dealer) >> led & 1:
        return "the led card must be a card that neither hand holds"
    elif lead_count + 1 != follow_count:
        return "in mid-trick the leader must hold one card fewer than the follower"
    return None
