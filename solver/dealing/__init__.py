"""The realistic dealer (docs/dealing.md): whole deals made by the dealing
procedure of docs/rules.md §3, the discards, bids and talon exchanges by
rules of thumb (:mod:`~kosolve.dealing.dealer`).  A layer of its own just
above the model, which is all it needs: the bots, the environments, the
web view, the batch's deal command and the benchmarks all deal with it.
"""

from kosolve.dealing.dealer import (
    HARD_TAROCKS,
    MAX_SEED,
    DealingError,
    below,
    bid,
    choose_contract,
    choose_discard,
    choose_exchange,
    deal_as_dealt,
    deal_bid,
    deal_game,
    deal_games,
    deal_hard_games,
    hand_strength,
    random_ending,
    sample,
    shuffle,
)

__all__ = [
    "HARD_TAROCKS",
    "MAX_SEED",
    "DealingError",
    "below",
    "bid",
    "choose_contract",
    "choose_discard",
    "choose_exchange",
    "deal_as_dealt",
    "deal_bid",
    "deal_game",
    "deal_games",
    "deal_hard_games",
    "hand_strength",
    "random_ending",
    "sample",
    "shuffle",
]
