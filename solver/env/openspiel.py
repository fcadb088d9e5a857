"""Kosakeln as an OpenSpiel game, registered as ``python_kosakeln`` when
this module is imported (docs/env.md).

One chance node deals (outcome ``k`` is the realistic dealer's deal from
seed ``k``, :data:`DEALS` of them, equally likely); then the players take
the decisions of :mod:`kosolve.play.game`, an action being the index of an
option in its canonical order.  Information-state and observation tensors
and strings hold what the player's seat knows (its knowledge remembers
the whole play, so the observation has perfect recall too).  Parameters:
``phases`` (``"game"``, or ``"play"``: the cards alone, bid and exchange by
the dealer's rules of thumb) and ``reward`` (``"points"``, ``"win"``,
``"regret"``: as the PettingZoo environment's).

>>> import pyspiel
>>> game = pyspiel.load_game("python_kosakeln")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 1000)
"""

from __future__ import annotations

import json
import random
from typing import Any, Final

import numpy as np
import pyspiel

from kosolve.env.kosakeln_v0 import (
    MAX_ACTIONS,
    OBSERVATION_SIZE,
    PHASES,
    REWARDS,
    bid_and_exchange,
    encode,
    reward_values,
)
from kosolve.model.game import SEAT_NAMES
from kosolve.play.game import Game, option_json
from kosolve.tools.dealing import deal_as_dealt

DEALS: Final = 1000
"""The chance node's outcomes: the deals of seeds 0 to 999."""
MAX_GAME_LENGTH: Final = 70
"""Decisions in a game at most: 8 calls, 2 rounds of at most 10
announcements, a talon choice, a lay-away, 32 cards (and slack)."""
UTILITY_BOUND: Final = 1000.0
"""Game points beyond any settlement's."""
SHORT_NAME: Final = "python_kosakeln"

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Kosakeln (two-player Tarock), kosolve",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"phases": "game", "reward": "points"},
)
_GAME_INFO = pyspiel.GameInfo(
    num_distinct_actions=MAX_ACTIONS,
    max_chance_outcomes=DEALS,
    num_players=2,
    min_utility=-UTILITY_BOUND,
    max_utility=UTILITY_BOUND,
    utility_sum=0.0,
    max_game_length=MAX_GAME_LENGTH,
)


class KosakelnGame(pyspiel.Game):  # type: ignore[misc]
    """The game, with its parameters ``phases`` and ``reward``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(_GAME_TYPE, _GAME_INFO, params or {})
        given = self.get_parameters()
        self.phases = str(given.get("phases", "game"))
        self.reward = str(given.get("reward", "points"))
        if self.phases not in PHASES:
            raise ValueError(f"phases must be one of {', '.join(PHASES)}, not {self.phases!r}")
        if self.reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {self.reward!r}")

    def new_initial_state(self) -> KosakelnState:
        return KosakelnState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> KosakelnObserver:
        return KosakelnObserver(params)


class KosakelnState(pyspiel.State):  # type: ignore[misc]
    """A state: before the deal (a chance node), or a game in progress."""

    def __init__(self, game: KosakelnGame) -> None:
        super().__init__(game)
        self.phases = game.phases
        self.reward = game.reward
        self.deal_number: int | None = None
        self.game: Game | None = None

    def current_player(self) -> int:
        if self.game is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.game.over:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.game.decision().seat

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(k, 1.0 / DEALS) for k in range(DEALS)]

    def _legal_actions(self, player: int) -> list[int]:
        assert self.game is not None
        return list(range(len(self.game.decision().options)))

    def _apply_action(self, action: int) -> None:
        if self.game is None:
            self.deal_number = action
            rng = random.Random(action)
            self.game = Game(deal_as_dealt(rng))
            if self.phases == "play":
                bid_and_exchange(self.game, rng)
            return
        self.game.choose(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        assert self.game is not None
        decision = self.game.decision()
        return f"{decision.kind} {json.dumps(option_json(decision.kind, decision.options[action]))}"

    def is_terminal(self) -> bool:
        return self.game is not None and self.game.over

    def returns(self) -> list[float]:
        if self.game is None or not self.game.over:
            return [0.0, 0.0]
        return [float(value) for value in reward_values(self.game, self.reward)]

    def __str__(self) -> str:
        if self.game is None:
            return "before the deal"
        return json.dumps(self.game.to_json())


class KosakelnObserver:
    """What a player knows, as a tensor (:func:`~kosolve.env.kosakeln_v0.encode`)
    and as a string (the knowledge's JSON)."""

    def __init__(self, params: Any = None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.tensor = np.zeros(OBSERVATION_SIZE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: KosakelnState, player: int) -> None:
        game = state.game
        if game is None:
            self.tensor.fill(0)
            return
        kind = "play" if game.over else game.decision().kind
        self.tensor[:] = encode(game.knowledge(player), kind)

    def string_from(self, state: KosakelnState, player: int) -> str:
        game = state.game
        if game is None:
            return f"{SEAT_NAMES[player]}: before the deal"
        return json.dumps(game.knowledge(player).to_json(), sort_keys=True)


pyspiel.register_game(_GAME_TYPE, KosakelnGame)

__all__ = ["DEALS", "SHORT_NAME", "KosakelnGame", "KosakelnObserver", "KosakelnState"]
