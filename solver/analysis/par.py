"""The par: what both players bid when each knows all the cards and wants the
most game points, under the seed's auction (docs/rules.md §3.4, the model
in docs/par.md, its rules in :mod:`kosolve.model.auction`).

The input is the value of every contract to every possible declarer, from
his side: the game points he scores playing it with his best exchange.  The
game is zero-sum, so the other player scores the negative.  The par is the
auction both play from there, solved by backward induction over its few
states.

In the seed's example the forehand bids Dreiblatt, the dealer outbids him
with Zweiblatt and the forehand holds it: his Dreiblatt would score 9, but
the dealer's Zweiblatt would cost him 6, and holding it scores him 6.

>>> from kosolve.model.game import DEALER
>>> values = {(FOREHAND, "dreiblatt"): 9, (FOREHAND, "zweiblatt"): 6,
...           (FOREHAND, "einblatt"): -9, (FOREHAND, "solo"): -12,
...           (DEALER, "dreiblatt"): -3, (DEALER, "zweiblatt"): 6,
...           (DEALER, "einblatt"): -9, (DEALER, "solo"): -12}
>>> best = par(values)
>>> best.calls, best.forehand_score
(('dreiblatt', 'zweiblatt', 'hold', 'pass'), 6)
>>> best.to_json()  # doctest: +NORMALIZE_WHITESPACE
{'declarer': 'forehand', 'contract': 'zweiblatt', 'game_points': 6, 'forehand_score': 6,
 'calls': ['dreiblatt', 'zweiblatt', 'hold', 'pass']}

Against par, a Dreiblatt let stand would have gained the forehand 3 (a
cost of -3), and the dealer's own Zweiblatt would have gained him 12:

>>> bid_cost(values, best, FOREHAND, "dreiblatt"), bid_cost(values, best, DEALER, "zweiblatt")
(-3, -12)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from kosolve.model.auction import OPENING, AuctionState, Outcome, after_call, auction_calls
from kosolve.model.game import CONTRACTS, FOREHAND, SEATS, Seat, seat_name
from kosolve.model.quoting import quote


class ParError(ValueError):
    """A table of contract values that the par cannot be computed from."""


@dataclass(frozen=True)
class Par:
    """The par auction and the contract it ends in."""

    declarer: Seat | None
    """Who plays; None when both pass."""
    contract: str | None
    """What he plays; None when both pass."""
    game_points: int
    """The declarer's game points from his side; 0 when both pass."""
    forehand_score: int
    """The forehand's game points: ``game_points`` when he declares, its
    negative when the dealer does, 0 when both pass."""
    calls: tuple[str, ...]
    """The par auction, the forehand's call first: contracts, ``"hold"`` and
    ``"pass"``."""

    def to_json(self) -> dict[str, object]:
        return {
            "declarer": None if self.declarer is None else seat_name(self.declarer),
            "contract": self.contract,
            "game_points": self.game_points,
            "forehand_score": self.forehand_score,
            "calls": list(self.calls),
        }


def _checked(values: Mapping[tuple[Seat, str], int]) -> dict[tuple[Seat, int], int]:
    """The table keyed by seat and contract index, every entry present and
    none unknown."""
    known = {(seat, contract) for seat in SEATS for contract in CONTRACTS}
    unknown = [key for key in values if key not in known]
    if unknown:
        raise ParError(f"values: {quote(str(unknown[0]))} is not a seat and a contract")
    missing = [key for key in sorted(known) if key not in values]
    if missing:
        seat, contract = missing[0]
        raise ParError(f"values: no game points for the {seat_name(seat)} playing {contract}")
    return {(seat, CONTRACTS.index(contract)): value for (seat, contract), value in values.items()}


def par(values: Mapping[tuple[Seat, str], int], state: AuctionState = OPENING) -> Par:
    """The par auction for a table of the declarer's game points by seat and
    contract.  Each player maximises his own game points; of calls that give
    him the same, he prefers the earliest in the order pass, hold, the bids
    from the lowest up (docs/par.md, "Ties").  From ``state`` (the
    opening by default) the calls are those from that point of an auction
    on.

    When no contract gains anything, both pass:

    >>> from kosolve.model.game import DEALER
    >>> zero = {(seat, contract): 0 for seat in SEATS for contract in CONTRACTS}
    >>> par(zero)
    Par(declarer=None, contract=None, game_points=0, forehand_score=0, calls=('pass', 'pass'))

    A Solo only the dealer wins is no threat when the forehand can hold it,
    so the forehand's Dreiblatt (worth 0 to him) stands; when he would lose
    the Solo too, the dealer plays it:

    >>> par({**zero, (DEALER, "solo"): 12}).calls
    ('dreiblatt', 'pass')
    >>> par({**zero, (DEALER, "solo"): 12, (FOREHAND, "solo"): -12}).calls
    ('pass', 'solo')
    >>> par({(0, "solo"): 3})
    Traceback (most recent call last):
    ...
    kosolve.analysis.par.ParError: values: no game points for the forehand playing dreiblatt
    """
    table = _checked(values)

    def score(outcome: Outcome) -> int:
        if outcome is None:
            return 0
        value = table[outcome]
        return value if outcome[0] == FOREHAND else -value

    # The auction has ten states, each reached by many call sequences: the
    # memo makes every one solved once.
    memo: dict[AuctionState, tuple[int, tuple[str, ...], Outcome]] = {}

    def solve(state: AuctionState) -> tuple[int, tuple[str, ...], Outcome]:
        """The forehand's score with best calls from the state on, the calls
        and the outcome."""
        if state in memo:
            return memo[state]
        sign = 1 if state.turn == FOREHAND else -1
        best: tuple[int, tuple[str, ...], Outcome] | None = None
        for call in auction_calls(state):
            after = after_call(state, call)
            if isinstance(after, AuctionState):
                forehand, rest, outcome = solve(after)
                line = (call, *rest)
            else:
                forehand, line, outcome = score(after), (call,), after
            # Strictly better only: an equal score keeps the earlier call.
            if best is None or sign * forehand > sign * best[0]:
                best = (forehand, line, outcome)
        assert best is not None
        memo[state] = best
        return best

    forehand, calls, outcome = solve(state)
    if outcome is None:
        return Par(None, None, 0, 0, calls)
    declarer, index = outcome
    return Par(declarer, CONTRACTS[index], table[outcome], forehand, calls)


def bid_cost(values: Mapping[tuple[Seat, str], int], best: Par, declarer: Seat, contract: str) -> int:
    """What playing ``contract`` as ``declarer`` costs him against par, in
    game points from his side: his par score less the contract's value.  A
    positive cost is a loss against par; a negative one a gain, which only a
    mistake of the other player's can give him.  ``best`` is
    ``par(values)``, passed in so that a table of costs solves the auction
    once.

    >>> from kosolve.model.game import DEALER
    >>> zero = {(seat, contract): 0 for seat in SEATS for contract in CONTRACTS}
    >>> table = {**zero, (FOREHAND, "solo"): 12, (DEALER, "solo"): -24}
    >>> [bid_cost(table, par(table), FOREHAND, contract) for contract in CONTRACTS]
    [12, 12, 12, 0]
    >>> bid_cost(table, par(table), DEALER, "solo")
    12
    """
    table = _checked(values)
    if contract not in CONTRACTS:
        raise ParError(f"contract: {quote(contract)} is not a contract")
    if declarer not in SEATS:
        raise ParError(f"declarer: {declarer!r} is not a seat")
    par_points = best.forehand_score if declarer == FOREHAND else -best.forehand_score
    return par_points - table[(declarer, CONTRACTS.index(contract))]
