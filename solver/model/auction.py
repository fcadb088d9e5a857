"""The auction's rules (docs/par.md, "The auction model"): its calls, its
states and where each call leads.  The game plays an auction by them and
the par searches every auction by them.

The forehand opens; after his Dreiblatt the dealer may pass or bid higher,
and his pass leaves the forehand to play the Dreiblatt:

>>> auction_calls(OPENING)
['pass', 'dreiblatt', 'zweiblatt', 'einblatt', 'solo']
>>> answer = after_call(OPENING, "dreiblatt")
>>> answer, auction_calls(answer)
(AuctionState(turn=1, standing=0, forehand_passed=False), ['pass', 'zweiblatt', 'einblatt', 'solo'])
>>> after_call(answer, PASS)
(0, 0)
"""

from __future__ import annotations

from typing import Final, NamedTuple, TypeAlias

from kosolve.model.game import CONTRACTS, DEALER, FOREHAND, Seat

PASS: Final = "pass"
HOLD: Final = "hold"


class AuctionState(NamedTuple):
    """A point of the auction where ``turn`` is to call.  ``standing`` is
    the index of the contract standing, bid or held by the other player, or
    None before any bid; ``forehand_passed`` marks the dealer's first call
    after the forehand opened with a pass."""

    turn: Seat
    standing: int | None
    forehand_passed: bool


Outcome: TypeAlias = tuple[Seat, int] | None
"""How an auction ends: the declarer and the contract's index, or None when
both passed."""

OPENING: Final = AuctionState(FOREHAND, None, False)
"""The auction's first state: the forehand to call, nothing standing."""


def auction_calls(state: AuctionState) -> list[str]:
    """The legal calls, in the order of the tie rule: pass, hold, then the
    bids from the lowest up."""
    lowest = 0 if state.standing is None else state.standing + 1
    holds = [HOLD] if state.turn == FOREHAND and state.standing is not None else []
    return [PASS, *holds, *CONTRACTS[lowest:]]


def after_call(state: AuctionState, call: str) -> AuctionState | Outcome:
    """The state after a legal call, or the outcome when it ends the
    auction."""
    other = DEALER if state.turn == FOREHAND else FOREHAND
    if call == PASS:
        if state.standing is not None:
            return (other, state.standing)
        return AuctionState(DEALER, None, True) if state.turn == FOREHAND else None
    contract = state.standing if call == HOLD else CONTRACTS.index(call)
    assert contract is not None
    if state.forehand_passed:
        # A pass is final: the forehand who opened with one cannot answer
        # the dealer's bid, so it is played.
        return (DEALER, contract)
    return AuctionState(other, contract, False)


__all__ = ["HOLD", "OPENING", "PASS", "AuctionState", "Outcome", "after_call", "auction_calls"]
