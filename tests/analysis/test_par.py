"""The par against a plain game-tree search written from the auction's rules
(docs/par.md): every legal call sequence replayed from the start, no memo,
nothing shared with kosolve.analysis.par."""

from __future__ import annotations

import doctest
import random
from collections.abc import Callable, Sequence
from typing import Final

import pytest
from support import DOCS

from kosolve.analysis.par import Par, ParError, bid_cost, par
from kosolve.model.game import CONTRACTS

FH: Final = 0
DL: Final = 1
ORDER: Final = ("dreiblatt", "zweiblatt", "einblatt", "solo")
"""The contracts, lowest first, written out again so that the referee does
not read them where the par does."""

Values = dict[tuple[int, str], int]
Result = tuple[int, str] | None
"""A finished auction: the declarer and his contract, or None when both
passed."""


class IllegalCall(Exception):
    pass


def referee(calls: Sequence[str]) -> tuple[bool, int, list[str], Result]:
    """Replays an auction from the forehand's first call: whether it is
    over, who speaks next, his legal calls (pass, hold, the bids from the
    lowest up) and, once it is over, the result."""
    bidder: int | None = None
    level = -1
    passed: set[int] = set()
    turn = FH
    over = False
    for call in calls:
        if over:
            raise IllegalCall(f"{call} after the end")
        other = 1 - turn
        if call == "pass":
            passed.add(turn)
            # Passing to the other's bid leaves it to him.
            over = bidder == other or other in passed
        elif call == "hold":
            if turn != FH or bidder != DL:
                raise IllegalCall("only the forehand holds, and only the dealer's bid")
            bidder = FH
            over = other in passed
        elif call in ORDER and ORDER.index(call) > level:
            bidder, level = turn, ORDER.index(call)
            # The forehand who passed cannot answer.
            over = other in passed
        else:
            raise IllegalCall(call)
        turn = other
    result = None if bidder is None else (bidder, ORDER[level])
    if over:
        return True, turn, [], result
    legal = ["pass", *(["hold"] if turn == FH and bidder == DL else []), *ORDER[level + 1 :]]
    return False, turn, legal, result


def forehand_score(values: Values, result: Result) -> int:
    if result is None:
        return 0
    return values[result] if result[0] == FH else -values[result]


def game_tree(values: Values, calls: tuple[str, ...], shuffle: random.Random) -> tuple[int, tuple[str, ...]]:
    """The forehand's score with best calls after ``calls`` and the rest of
    the auction.  Ties go to the call first in the order pass, hold, the
    bids from the lowest up, by that order's rank: the legal calls are tried
    in a random order to show that the rule, not the order, decides."""
    over, turn, legal, result = referee(calls)
    if over:
        return forehand_score(values, result), calls
    rank = {call: i for i, call in enumerate(legal)}
    shuffle.shuffle(legal)
    lines = [game_tree(values, (*calls, call), shuffle) for call in legal]
    sign = 1 if turn == FH else -1
    return max(lines, key=lambda line: (sign * line[0], -rank[line[1][len(calls)]]))


def uniform(rng: random.Random) -> Values:
    return {(seat, c): rng.randint(-48, 48) for seat in (FH, DL) for c in ORDER}


def tied(rng: random.Random) -> Values:
    return {(seat, c): rng.choice([-6, -3, 0, 3, 6]) for seat in (FH, DL) for c in ORDER}


def both_win(rng: random.Random) -> Values:
    """Both could win every contract: whether to hold the dealer's bid is
    the question."""
    return {(seat, c): rng.randint(0, 24) for seat in (FH, DL) for c in ORDER}


def all_lose(rng: random.Random) -> Values:
    return {(seat, c): rng.randint(-48, -1) for seat in (FH, DL) for c in ORDER}


GENERATORS: Final[dict[str, Callable[[random.Random], Values]]] = {
    "uniform": uniform,
    "tied": tied,
    "both_win": both_win,
    "all_lose": all_lose,
}


def test_the_contracts_are_the_models() -> None:
    assert tuple(CONTRACTS) == ORDER


@pytest.mark.parametrize("kind", GENERATORS)
def test_par_is_the_game_tree(kind: str) -> None:
    rng = random.Random(f"par-{kind}")
    seen: set[object] = set()
    for _ in range(1500):
        values = GENERATORS[kind](rng)
        best = par(values)
        score, line = game_tree(values, (), rng)
        assert best.forehand_score == score, values
        assert best.calls == line, values
        over, _, _, result = referee(best.calls)
        assert over
        assert result == (None if best.declarer is None else (best.declarer, best.contract))
        assert forehand_score(values, result) == best.forehand_score
        assert best.game_points == (0 if result is None else values[result])
        if kind == "all_lose":
            assert best.calls == ("pass", "pass")
        seen.add(best.declarer)
        seen.update(call for call in best.calls if call == "hold")
    if kind != "all_lose":
        assert {FH, DL, "hold"} <= seen, "the tables should reach both declarers and a hold"


def test_the_referee_refuses_what_the_rules_do() -> None:
    for calls in [("hold",), ("solo", "zweiblatt"), ("zweiblatt", "hold"), ("pass", "dreiblatt", "pass")]:
        with pytest.raises(IllegalCall):
            referee(calls)
    assert referee(("pass", "solo"))[3] == (DL, "solo")
    assert referee(("dreiblatt", "solo", "hold"))[2] == ["pass"]


def table(forehand: Sequence[int], dealer: Sequence[int]) -> Values:
    """A table from the four values of each seat, Dreiblatt first."""
    rows = ((FH, forehand), (DL, dealer))
    return {(seat, c): value for seat, row in rows for c, value in zip(ORDER, row, strict=True)}


def test_both_pass() -> None:
    best = par(table([-3, -6, -9, -12], [0, -6, -9, -12]))
    assert best == Par(None, None, 0, 0, ("pass", "pass"))
    assert best.to_json() == {
        "declarer": None,
        "contract": None,
        "game_points": 0,
        "forehand_score": 0,
        "calls": ["pass", "pass"],
    }


def test_the_dealer_outbids() -> None:
    # The dealer's best is the Dreiblatt: the forehand takes it away by
    # bidding it, and the dealer goes on to his Zweiblatt.
    best = par(table([-3, -6, -9, -12], [9, 6, -9, -12]))
    assert best == Par(DL, "zweiblatt", 6, -6, ("dreiblatt", "zweiblatt", "pass"))
    assert best.to_json()["declarer"] == "dealer"


def test_the_dealer_bids_after_the_forehand_passes() -> None:
    best = par(table([-3, -6, -9, -12], [3, 6, 9, 12]))
    assert best == Par(DL, "solo", 12, -12, ("pass", "solo"))


def test_the_forehand_holds() -> None:
    best = par(table([9, 6, -9, -12], [-3, 6, -9, -12]))
    assert best == Par(FH, "zweiblatt", 6, 6, ("dreiblatt", "zweiblatt", "hold", "pass"))


def test_the_dealer_outbids_a_hold() -> None:
    # The forehand holds the dealer's Zweiblatt, which would win 9; the
    # dealer's Solo wins 3, and the forehand would lose 6 holding it.
    best = par(table([3, 0, 0, -6], [0, 9, 0, 3]))
    assert best == Par(DL, "solo", 3, -3, ("dreiblatt", "zweiblatt", "hold", "solo", "pass"))


def test_ties_prefer_the_pass_then_the_lower_bid() -> None:
    assert par(table([0, 0, 0, 0], [0, 0, 0, 0])).calls == ("pass", "pass")
    assert par(table([6, 6, 6, 6], [-6, -6, -6, -6])).calls == ("dreiblatt", "pass")


def test_bid_cost() -> None:
    values = table([9, 6, -9, -12], [-3, 6, -9, -12])
    best = par(values)
    assert [bid_cost(values, best, FH, c) for c in ORDER] == [-3, 0, 15, 18]
    assert [bid_cost(values, best, DL, c) for c in ORDER] == [-3, -12, 3, 6]
    rng = random.Random("bid-cost")
    for _ in range(200):
        values = uniform(rng)
        best = par(values)
        if best.declarer is not None and best.contract is not None:
            assert bid_cost(values, best, best.declarer, best.contract) == 0


def test_a_missing_or_unknown_entry_is_refused() -> None:
    values = table([0, 0, 0, 0], [0, 0, 0, 0])
    del values[(DL, "einblatt")]
    with pytest.raises(ParError, match="no game points for the dealer playing einblatt"):
        par(values)
    with pytest.raises(ParError, match="is not a seat and a contract"):
        par({**table([0] * 4, [0] * 4), (FH, "bettel"): 0})
    with pytest.raises(ValueError, match="is not a contract"):
        bid_cost(table([0] * 4, [0] * 4), par(table([0] * 4, [0] * 4)), FH, "bettel")
    with pytest.raises(ValueError, match="is not a seat"):
        bid_cost(table([0] * 4, [0] * 4), par(table([0] * 4, [0] * 4)), 2, "solo")


def test_the_worked_example() -> None:
    doc = DOCS / "par.md"
    result = doctest.testfile(str(doc), module_relative=False)
    assert result.failed == 0
    assert result.attempted > 0
