"""Kosakeln as a PettingZoo AEC environment (docs/env.md).

Two agents, ``forehand`` and ``dealer``, take every decision of a game
(:mod:`kosolve.play.game`): the auction, the announcements, the talon
choice and the lay-away, every card — or, with ``phases="play"``, the
cards alone, the bid and exchange made by the realistic dealer's rules of
thumb.  An action is the index of an option in the decision's canonical
order (docs/protocol.md), below :data:`MAX_ACTIONS`; the observation is a
dict of ``observation`` (:data:`OBSERVATION_SIZE` zeros and ones, what the
agent's seat knows, in the named pieces of :mod:`kosolve.env.encoding`)
and ``action_mask``.

The rule switches that add decisions are the constructor's
``defender_announcements`` (the defender announces birds or the Valat
after the declarer, each round) and ``kontra`` (each seat may double the
other's announcements of the round: the ``kontra`` decision), both off
by default (docs/rules.md §5.1, §6.2); the game is settled by them.

Rewards come at the end: ``"points"`` (the default) each seat's net game
points; ``"win"`` +1, −1 or 0; ``"regret"`` the game points less what
score-optimal double-dummy play from trick 1 gives that seat (0 for
perfect play by both).  ``exact_value()`` is the exact value of the
current position (the declarer's final thirds with best play, or with
``score=True`` his net game points), the hook to measure a learner
against perfect play.

>>> environment = env(phases="play")
>>> environment.reset(seed=3)
>>> environment.agent_selection
'forehand'
>>> observation, reward, terminated, truncated, info = environment.last()
>>> int(observation["action_mask"].sum()), observation["observation"].shape
(16, (516,))
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from kosolve.analysis.netscore import net_score
from kosolve.analysis.solving import solve
from kosolve.dealing import deal_as_dealt
from kosolve.env.encoding import (
    MAX_ACTIONS,
    OBSERVATION_SIZE,
    PHASES,
    REWARDS,
    bid_and_exchange,
    encode,
    optimal_points,
    reward_values,
)
from kosolve.model.cards import hand_names, mask_of
from kosolve.model.game import SEAT_NAMES, Rules
from kosolve.play.game import ChoiceError, Decision, Game


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo names the unwrapped environment so
    """The environment without PettingZoo's wrappers; see the module text."""

    metadata: ClassVar[dict[str, Any]] = {"name": "kosakeln_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        phases: str = "game",
        reward: str = "points",
        render_mode: str | None = None,
        defender_announcements: bool = False,
        kontra: bool = False,
    ) -> None:
        super().__init__()
        for name, value in (("defender_announcements", defender_announcements), ("kontra", kontra)):
            if not isinstance(value, bool | np.bool_):
                raise TypeError(f"{name} must be a bool, not {type(value).__name__}")
        if phases not in PHASES:
            raise ValueError(f"phases must be one of {', '.join(PHASES)}, not {phases!r}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.phases = phases
        self.reward_kind = reward
        self.rules = Rules(defender_announcements=bool(defender_announcements), kontra=bool(kontra))
        """The rules the games are played and settled by."""
        self.render_mode = render_mode
        self.possible_agents = list(SEAT_NAMES)
        self.agents = list(SEAT_NAMES)
        self._rng = random.Random()
        self.game: Game | None = None
        self._decision: tuple[Game, int, Decision] | None = None
        """The game's current decision, asked once a step (:meth:`decision`),
        with the game and its number of moves it was asked at."""
        self._observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0, 1, (OBSERVATION_SIZE,), dtype=np.int8),
                    "action_mask": spaces.Box(0, 1, (MAX_ACTIONS,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self._action_spaces = {agent: spaces.Discrete(MAX_ACTIONS) for agent in self.possible_agents}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        dealt = deal_as_dealt(self._rng)
        self.game = Game(dealt, self.rules)
        if self.phases == "play":
            bid_and_exchange(self.game, self._rng)
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._start_thirds: int | None = None
        self.agent_selection = SEAT_NAMES[self.decision().seat]

    def decision(self) -> Decision:
        """The game's current decision (the game not over), asked of the
        game once a step and kept until the next: building it builds the
        seat's knowledge, and a step wants it for the next agent, its
        observation and its mask."""
        game = self.game
        assert game is not None
        # Kept for the game and the move it was asked at: a game replaced or
        # moved on by hand (``env.unwrapped.game``) is asked afresh.
        if self._decision is None or self._decision[0] is not game or self._decision[1] != len(game.moves):
            self._decision = (game, len(game.moves), game.decision())
        return self._decision[2]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.game is not None
        seat = SEAT_NAMES.index(agent)
        mask = np.zeros(MAX_ACTIONS, dtype=np.int8)
        if self.game.over:
            knows, kind, decision = self.game.knowledge(seat), "play", None
        else:
            decision = self.decision()
            kind = decision.kind
            knows = decision.knowledge if decision.seat == seat else self.game.knowledge(seat)
            if decision.seat == seat:
                mask[: len(decision.options)] = 1
        return {"observation": encode(knows, kind, decision), "action_mask": mask}

    def step(self, action: Any) -> None:
        if not self.agents:
            # After the end, as PettingZoo's order-enforcing wrapper answers it.
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        assert game is not None
        # int() would take 1.7, "1" or True as an option's index.
        if isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer):
            raise TypeError(f"an action is an int, the index of an option, not {type(action).__name__}")
        try:
            game.choose(int(action))
        except ChoiceError as error:
            raise ValueError(f"action {error.choice} is masked out: the {agent} has {error.options} options") from None
        self._cumulative_rewards[agent] = 0
        if game.over:
            self._finish()
        else:
            self.agent_selection = SEAT_NAMES[self.decision().seat]
        self._accumulate_rewards()

    def last(self, observe: bool = True) -> tuple[dict[str, np.ndarray] | None, float, bool, bool, dict[str, Any]]:
        """The current agent's observation, reward, termination, truncation
        and info; after the end (no agents left) the agent last selected's
        final observation, terminated, its reward already paid."""
        if self.agents:
            return super().last(observe)  # type: ignore[no-any-return]
        return (self.observe(self.agent_selection) if observe else None, 0, True, False, {})

    def _finish(self) -> None:
        game = self.game
        assert game is not None
        totals = game.points
        values = reward_values(game, self.reward_kind)
        self.rewards = {agent: values[seat] for seat, agent in enumerate(SEAT_NAMES)}
        self.terminations = {agent: True for agent in self.agents}
        for agent in self.agents:
            self.infos[agent] = {"totals": dict(zip(SEAT_NAMES, totals, strict=True))}

    def exact_value(self, score: bool = False) -> int | None:
        """The exact value of the current position with best play by both:
        the declarer's final thirds, or with ``score`` his net game points;
        None before the play."""
        game = self.game
        if game is None or game.deal is None or game.position is None:
            return None
        if score:
            return net_score(
                game.deal, game.position.copy(), rules=game.rules, with_points_line=False, with_line=False
            ).score
        return solve(game.position.copy(), with_moves=False, with_line=False).thirds

    def render(self) -> str | None:
        if self.render_mode is None or self.game is None:
            return None
        game = self.game
        lines = [f"phase: {game.phase}; calls: {' '.join(game.calls) or '-'}"]
        if game.contract is not None:
            lines.append(f"{game.contract}, declarer {SEAT_NAMES[game.declarer or 0]}")
        for seat, name in enumerate(SEAT_NAMES):
            cards = game.position.hands[seat] if game.position is not None else game.dealt.held(seat)
            lines.append(f"{name}: {' '.join(hand_names(cards))}")
        if game.position is not None:
            lines.append(f"played: {' '.join(hand_names(mask_of(game.position.move_stack)))}")
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release."""


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order-enforcing wrapper, whose :meth:`last` after the
    end is the environment's (PettingZoo's own reads the dicts the dead
    agents have left: a KeyError)."""

    def last(self, observe: bool = True) -> tuple[dict[str, np.ndarray] | None, float, bool, bool, dict[str, Any]]:
        if self._has_reset and not self.agents:
            return self.unwrapped.last(observe)  # type: ignore[no-any-return]
        return super().last(observe)  # type: ignore[no-any-return]

    def __str__(self) -> str:
        return str(self.env)


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual wrappers (actions checked,
    the order enforced)."""
    environment: AECEnv = raw_env(**kwargs)
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    return _OrderEnforcing(environment)


__all__ = [
    "MAX_ACTIONS",
    "OBSERVATION_SIZE",
    "PHASES",
    "REWARDS",
    "bid_and_exchange",
    "encode",
    "env",
    "optimal_points",
    "raw_env",
    "reward_values",
]
