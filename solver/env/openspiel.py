"""Kosakeln as an OpenSpiel game, registered as ``python_kosakeln`` when
this module is imported (docs/env.md).

Chance nodes deal the cards one at a time, each outcome a card still to
deal, all equally likely: the talon top first, the forehand's hand, the
dealer's, the forehand's personal cards (:data:`PARTS`); the dealer's
personal cards are the eight left.  So every deal is possible, each as
likely as at the table.  Each seat then lays away eight hand cards as the
realistic dealer does (:func:`dealt_from`), and the players take the
decisions of :mod:`kosolve.play.game`, an action being the index of an
option in its canonical order.  Information-state and observation tensors
and strings hold what the player's seat knows (:class:`KosakelnObserver`).
Parameters:
``phases`` (``"game"``, or ``"play"``: the cards alone, bid and exchange by
the dealer's rules of thumb), ``reward`` (``"points"``, ``"win"``,
``"regret"``: as the PettingZoo environment's), and the rule switches
``defender_announcements`` and ``kontra`` (booleans, off by default: the
defender's announcements and the ``kontra`` decisions, docs/rules.md
§5.1, §6.2).  An action is an ``int`` (a NumPy integer too): a bool or
anything else is refused with a ``TypeError``.

>>> import pyspiel
>>> game = pyspiel.load_game("python_kosakeln")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes()), state.chance_outcomes()[0]
(True, 54, (0, 0.018518518518518517))
>>> state.apply_action(53)
>>> len(state.chance_outcomes()), 53 in state.legal_actions()
(53, False)
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Sequence
from typing import Any, Final

import numpy as np
import pyspiel

from kosolve.dealing import choose_discard
from kosolve.env.encoding import (
    MAX_ACTIONS,
    OBSERVATION_SIZE,
    PHASES,
    PIECE_SLICES,
    REWARDS,
    bid_and_exchange,
    encode,
    reward_values,
)
from kosolve.model.cards import ALL_CARDS, N_CARDS, Card, card_name, cards_of, mask_of
from kosolve.model.dealt import DISCARD_SIZE, HAND_SIZE, PERSONAL_SIZE, Dealt
from kosolve.model.game import SEAT_NAMES, TALON_SIZE, Rules
from kosolve.play.game import Decision, Game, Knowledge, option_json

PARTS: Final = (
    ("the talon", TALON_SIZE),
    ("the forehand's hand", HAND_SIZE),
    ("the dealer's hand", HAND_SIZE),
    ("the forehand's personal cards", PERSONAL_SIZE),
    ("the dealer's personal cards", PERSONAL_SIZE),
)
"""Where the cards go, in the order the chance nodes deal them."""
_STARTS: Final = tuple(itertools.accumulate((size for _, size in PARTS), initial=0))
CHANCE_NODES: Final = N_CARDS - PARTS[-1][1]
"""One chance node a card, but for the last part's cards: what is left."""
MAX_GAME_LENGTH: Final = 70
"""Decisions in a game at most (the chance nodes are not counted, as
OpenSpiel counts): 8 calls; 9 announcements and 9 Kontras at most in all
(each bonus is announced once, and doubled once), and a ``done`` to end
each of the 4 steps of the 2 rounds; a talon choice, a lay-away, 32 cards:
68 (and slack)."""
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
    parameter_specification={"phases": "game", "reward": "points", "defender_announcements": False, "kontra": False},
)
_GAME_INFO = pyspiel.GameInfo(
    num_distinct_actions=MAX_ACTIONS,
    max_chance_outcomes=N_CARDS,
    num_players=2,
    min_utility=-UTILITY_BOUND,
    max_utility=UTILITY_BOUND,
    utility_sum=0.0,
    max_game_length=MAX_GAME_LENGTH,
)


def _tie_breaker(*seen: object) -> random.Random:
    """The generator that breaks a rule of thumb's ties, seeded with what the
    seat choosing has seen and nothing else, so that its choice, seen by
    it (and by the other when shown), tells nothing of the hidden cards."""
    return random.Random(" ".join(map(str, seen)))


def dealt_from(cards: Sequence[Card]) -> Dealt:
    """The deal as dealt whose chance nodes gave ``cards`` (the first
    :data:`CHANCE_NODES` cards, in the order of :data:`PARTS`), each seat
    laying away eight hand cards by the realistic dealer's rule of thumb
    (:func:`~kosolve.dealing.choose_discard`), its ties broken by the
    seat's hand.

    >>> from kosolve.model.cards import hand_names
    >>> dealt = dealt_from(range(CHANCE_NODES))
    >>> dealt.talon, hand_names(dealt.personal[1])
    ((0, 1, 2, 3, 4, 5), ['Sk', 'XXI', 'XX', 'XIX', 'XVIII', 'XVII', 'XVI', 'XV'])
    """
    forehand, dealer, personal = (mask_of(cards[start:end]) for start, end in itertools.pairwise(_STARTS[1:-1]))
    discards = [choose_discard(hand, DISCARD_SIZE, _tie_breaker("discard", hand)) for hand in (forehand, dealer)]
    return Dealt(
        tuple(cards[:TALON_SIZE]),
        (forehand, dealer),
        (personal, ALL_CARDS & ~mask_of(cards)),
        (discards[0], discards[1]),
    )


class KosakelnGame(pyspiel.Game):  # type: ignore[misc]
    """The game, with its parameters ``phases``, ``reward``,
    ``defender_announcements`` and ``kontra`` (:attr:`rules`)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(_GAME_TYPE, _GAME_INFO, params or {})
        given = self.get_parameters()
        self.phases = str(given.get("phases", "game"))
        self.reward = str(given.get("reward", "points"))
        if self.phases not in PHASES:
            raise ValueError(f"phases must be one of {', '.join(PHASES)}, not {self.phases!r}")
        if self.reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {self.reward!r}")
        switches = {name: given.get(name, False) for name in ("defender_announcements", "kontra")}
        for name, value in switches.items():
            if not isinstance(value, bool):
                raise ValueError(f"{name} must be a bool, not {value!r}")
        self.rules = Rules(**switches)
        """The rules the games are played and settled by."""

    def new_initial_state(self) -> KosakelnState:
        return KosakelnState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> KosakelnObserver:
        return KosakelnObserver(iig_obs_type, params)


class KosakelnState(pyspiel.State):  # type: ignore[misc]
    """A state: the deal (chance nodes, a card each), or a game in progress."""

    def __init__(self, game: KosakelnGame) -> None:
        super().__init__(game)
        self.phases = game.phases
        self.reward = game.reward
        self.rules = game.rules
        self.cards: list[Card] = []
        """The cards the chance nodes have dealt, in order."""
        self.game: Game | None = None
        self._decision: Decision | None = None
        """The game's current decision, asked once a step: building it
        builds the seat's knowledge, and OpenSpiel asks for the player,
        the legal actions and their names, and the observations."""

    def decision(self) -> Decision:
        """The decision to take now (the deal done, the game not over)."""
        if self._decision is None:
            assert self.game is not None
            self._decision = self.game.decision()
        return self._decision

    def knowledge(self, player: int) -> Knowledge:
        """What ``player`` knows now (the deal done)."""
        game = self.game
        assert game is not None
        if not game.over and self.decision().seat == player:
            return self.decision().knowledge
        return game.knowledge(player)

    def current_player(self) -> int:
        if self.game is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.game.over:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.decision().seat

    def _undealt(self) -> list[Card]:
        return sorted(cards_of(ALL_CARDS & ~mask_of(self.cards)))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        undealt = self._undealt()
        return [(card, 1.0 / len(undealt)) for card in undealt]

    def _legal_actions(self, player: int) -> list[int]:
        return list(range(len(self.decision().options)))

    def apply_action(self, action: int) -> None:
        """Take ``action``, an ``int`` (a NumPy integer too); OpenSpiel's own
        would take ``True`` as action 1."""
        if isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer):
            raise TypeError(f"an action is an int, the index of an option or a card, not {type(action).__name__}")
        super().apply_action(int(action))

    def _apply_action(self, action: int) -> None:
        if self.game is not None:
            self._decision = None
            self.game.choose(action)
            return
        # OpenSpiel leaves the check to the game: a card dealt twice would
        # make a deal of fewer cards.
        if action not in self._undealt():
            raise ValueError(f"chance outcome {action} is not a card still to deal")
        self.cards.append(action)
        if len(self.cards) < CHANCE_NODES:
            return
        self.game = Game(dealt_from(self.cards), self.rules)
        if self.phases == "play":
            # The exchange's ties broken by the talon, which both see by then.
            bid_and_exchange(self.game, _tie_breaker("exchange", *self.game.dealt.talon))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            part = next(name for (name, _), end in zip(PARTS, _STARTS[1:], strict=True) if len(self.cards) < end)
            return f"deal {card_name(action)} to {part}"
        decision = self.decision()
        return f"{decision.kind} {json.dumps(option_json(decision.kind, decision.options[action]))}"

    def is_terminal(self) -> bool:
        return self.game is not None and self.game.over

    def returns(self) -> list[float]:
        if self.game is None or not self.game.over:
            return [0.0, 0.0]
        return [float(value) for value in reward_values(self.game, self.reward)]

    def __str__(self) -> str:
        if self.game is None:
            return f"the deal so far: {' '.join(card_name(card) for card in self.cards)}"
        return json.dumps(self.game.to_json())


class KosakelnObserver:
    """What a player knows, as a tensor (:func:`~kosolve.env.encoding.encode`,
    :attr:`dict` its named pieces) and as a string (the knowledge's JSON).

    Of OpenSpiel's observation types it serves those with public and the
    player's own private information, the information state (perfect
    recall) and the observation alike: the knowledge holds every call,
    announcement and trick in order, so the current view is the history
    too, and both get the same tensor and string (docs/env.md).  Others
    (no public information, none or all players' private information)
    are refused."""

    def __init__(self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        if iig_obs_type is not None and (
            not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError(
                "python_kosakeln observes public information with the player's own private information "
                f"(public_info=True, private_info=SINGLE_PLAYER), not public_info={iig_obs_type.public_info}, "
                f"private_info={iig_obs_type.private_info.name}"
            )
        self.tensor = np.zeros(OBSERVATION_SIZE, np.float32)
        self.dict = {name: self.tensor[where] for name, where in PIECE_SLICES.items()}

    def set_from(self, state: KosakelnState, player: int) -> None:
        game = state.game
        if game is None:
            self.tensor.fill(0)
            return
        decision = None if game.over else state.decision()
        kind = "play" if decision is None else decision.kind
        self.tensor[:] = encode(state.knowledge(player), kind, decision)

    def string_from(self, state: KosakelnState, player: int) -> str:
        if state.game is None:
            return f"{SEAT_NAMES[player]}: the deal, {len(state.cards)} of {CHANCE_NODES} cards dealt"
        return json.dumps(state.knowledge(player).to_json(), sort_keys=True)


pyspiel.register_game(_GAME_TYPE, KosakelnGame)

__all__ = ["CHANCE_NODES", "PARTS", "SHORT_NAME", "KosakelnGame", "KosakelnObserver", "KosakelnState", "dealt_from"]
