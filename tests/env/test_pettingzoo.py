"""The PettingZoo environment: PettingZoo's own API and seed tests for the
whole game and the play alone, every reward; the rewards are those of the
same decisions replayed on a game of :mod:`kosolve.play.game`, also with
the defender's announcements and Kontra on; the action mask is the game's
options at every step, and the observation names the bonus of each
announcement and Kontra action; a step asks the game for its decision
once; the hook to the exact value; an observation that holds what the
seat knows and no more, at every step, with and without the rule
switches.  Skipped without the extra ``kosolve[env]``."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test
from support.counting import DecisionCount
from support.rewards import replayed_rewards

from kosolve.analysis.solving import solve
from kosolve.dealing import deal_as_dealt
from kosolve.env.encoding import PIECE_SLICES
from kosolve.env.kosakeln_v0 import MAX_ACTIONS, env, raw_env
from kosolve.model.announcements import ANNOUNCEMENTS
from kosolve.model.cards import KINGS, cards_of
from kosolve.model.dealt import Dealt
from kosolve.model.game import DEFAULT_RULES, Rules
from kosolve.model.view import TAROCKS
from kosolve.play.game import Game

SWITCHES: dict[str, Any] = {"defender_announcements": True, "kontra": True}
"""The rule switches that add decisions, both on."""


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("phases", ["game", "play"])
@pytest.mark.parametrize("reward", ["points", "win", "regret"])
def test_pettingzoo_api_test(phases: str, reward: str) -> None:
    api_test(env(phases=phases, reward=reward, render_mode="ansi"), num_cycles=200)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("phases", ["game", "play"])
def test_pettingzoo_api_test_with_the_rule_switches(phases: str) -> None:
    api_test(env(phases=phases, render_mode="ansi", **SWITCHES), num_cycles=200)


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: env(phases="game"), num_cycles=200)


def play_out(environment: Any, seed: int) -> tuple[dict[str, float], list[int]]:
    """A game to its end with random legal actions: the rewards summed,
    and the actions taken."""
    rng = random.Random(seed)
    environment.reset(seed=seed)
    totals = {agent: 0.0 for agent in environment.possible_agents}
    actions = []
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, _ = environment.last()
        totals[agent] += reward
        if terminated or truncated:
            environment.step(None)
            continue
        mask = observation["action_mask"]
        assert mask.shape == (MAX_ACTIONS,) and mask.sum() >= 1
        actions.append(rng.choice(np.flatnonzero(mask).tolist()))
        environment.step(actions[-1])
    return totals, actions


def replayed_game(seed: int, actions: list[int], rules: Rules = DEFAULT_RULES) -> Game:
    """The game the environment should have played, worked out without it:
    the deal the realistic dealer deals with ``seed``, the ``actions``
    replayed on a game of :mod:`kosolve.play.game` under ``rules``."""
    game = Game(deal_as_dealt(random.Random(seed)), rules)
    for action in actions:
        game.choose(action)
    return game


@pytest.mark.parametrize("reward", ["points", "win", "regret"])
def test_the_rewards_are_the_replayed_games(reward: str) -> None:
    played = 0
    for seed in range(6):
        environment = env(phases="game", reward=reward)
        totals, actions = play_out(environment, seed)
        game = replayed_game(seed, actions)
        assert [totals["forehand"], totals["dealer"]] == replayed_rewards(game, reward)
        assert environment.unwrapped.game.moves == game.moves
        played += game.deal is not None
    assert played >= 3  # not only games both passed


@pytest.mark.parametrize("reward", ["points", "win"])
def test_the_rule_switches_play_to_the_end_with_the_replayed_games_rewards(reward: str) -> None:
    """Random play to the end with the defender's announcements and Kontra
    on: the defender announces and both say Kontra, and the rewards are
    those of the same decisions replayed on a game under those rules."""
    rules = Rules(**SWITCHES)
    kinds: set[tuple[str, bool]] = set()
    for seed in range(8):
        environment = env(phases="game", reward=reward, **SWITCHES)
        totals, actions = play_out(environment, seed)
        game = replayed_game(seed, actions, rules)
        assert environment.unwrapped.game.rules == rules
        assert environment.unwrapped.game.moves == game.moves
        assert [totals["forehand"], totals["dealer"]] == replayed_rewards(game, reward)
        kinds |= {(move.kind, move.seat == game.declarer) for move in game.moves if move.option != "done"}
    assert {("announce", False), ("kontra", False), ("kontra", True)} <= kinds, kinds


@pytest.mark.parametrize("switches", [{}, SWITCHES])
def test_the_mask_is_the_games_options_and_the_bonus_actions_are_named(switches: dict[str, Any]) -> None:
    """At every step the agent to act has a mask of the game's options and
    the other an empty one; for an announcement or a Kontra the
    observation's ``bonus_options`` names the bonus of each action."""
    where = PIECE_SLICES["bonus_options"]
    named = 0
    for seed in range(6):
        rng = random.Random(seed)
        environment = raw_env(**switches)
        environment.reset(seed=seed)
        game = environment.game
        assert game is not None
        while not game.over:
            decision = game.decision()
            for seat, agent in enumerate(environment.possible_agents):
                observation = environment.observe(agent)
                mask = observation["action_mask"]
                expected = np.zeros(MAX_ACTIONS, dtype=np.int8)
                if seat == decision.seat:
                    expected[: len(decision.options)] = 1
                assert (mask == expected).all()
                bonus = observation["observation"][where].reshape(len(ANNOUNCEMENTS), len(ANNOUNCEMENTS))
                if seat == decision.seat and decision.kind in ("announce", "kontra"):
                    shown = [ANNOUNCEMENTS[row.argmax()] for row in bonus if row.any()]
                    assert shown == list(decision.options[1:]) and bonus.sum() == len(shown)
                    named += decision.kind == "kontra"
                else:
                    assert not bonus.any()
            environment.step(rng.randrange(len(decision.options)))
    assert named or not switches


def test_the_announcement_pieces_say_whose_when_and_kontra() -> None:
    environment = raw_env(**SWITCHES)
    environment.reset(seed=1)
    rng = random.Random(1)
    seen = 0
    game = environment.game
    assert game is not None
    while not game.over:
        for seat, agent in enumerate(environment.possible_agents):
            observation = environment.observe(agent)["observation"]
            pieces = {name: observation[where].tolist() for name, where in PIECE_SLICES.items()}
            made = {a.what: a for a in game.announcements}
            assert pieces["announced"] == [int(what in made) for what in ANNOUNCEMENTS]
            assert pieces["announced_mine"] == [int(what in made and made[what].by == seat) for what in ANNOUNCEMENTS]
            before = [int(what in made and made[what].when == "before") for what in ANNOUNCEMENTS]
            assert pieces["announced_before"] == before
            assert pieces["kontra"] == [int(what in made and made[what].kontra) for what in ANNOUNCEMENTS]
            seen += sum(pieces["kontra"])
        environment.step(rng.randrange(len(environment.decision().options)))
    assert seen


def test_a_step_asks_the_game_for_its_decision_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The step, the next agent's observation and mask, the other's
    observation and ``last()``: one decision built a step."""
    count = DecisionCount(monkeypatch)
    environment = raw_env(**SWITCHES)
    environment.reset(seed=6)
    rng = random.Random(6)
    steps = 0
    while environment.agents:
        count.asked = 0
        observation, _, terminated, _, _ = environment.last()
        for agent in environment.possible_agents:
            environment.observe(agent)
        if terminated:
            environment.step(None)
            continue
        assert observation is not None
        environment.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
        environment.last()
        assert count.asked <= 1
        steps += 1
    assert steps > 2


def test_the_exact_value_hook_is_the_solvers_value() -> None:
    environment = raw_env(phases="play")
    environment.reset(seed=5)
    for _ in range(6):
        game = environment.game
        assert game is not None and game.position is not None
        assert environment.exact_value() == solve(game.position.copy(), with_moves=False).thirds
        environment.step(0)
    assert isinstance(environment.exact_value(score=True), int)
    before = raw_env(phases="game")
    before.reset(seed=5)
    assert before.exact_value() is None


def talon_swap(dealt: Dealt, seat: int) -> tuple[Dealt, set[int]]:
    """A deal that differs from ``dealt`` only where ``seat`` cannot see
    until the talon is exposed: the talon's top card swapped with one of
    the other's personal cards; and the two cards swapped."""
    other = 1 - seat
    top, kept = dealt.talon[0], min(cards_of(dealt.personal[other]))
    personal = list(dealt.personal)
    personal[other] ^= (1 << top) | (1 << kept)
    return replace(dealt, talon=(kept, *dealt.talon[1:]), personal=(personal[0], personal[1])), {top, kept}


def discard_swap(dealt: Dealt, seat: int) -> tuple[Dealt, set[int]]:
    """A deal that differs from ``dealt`` only where ``seat`` never sees: a
    card the other laid away face down swapped with a personal card he
    keeps and might have laid away; and the two cards swapped."""
    other = 1 - seat
    laid = min(cards_of(dealt.discards[other] & ~TAROCKS))
    kept = min(cards_of(dealt.personal[other] & ~TAROCKS & ~KINGS))  # one he may lay away
    moved = (1 << laid) | (1 << kept)
    hands, personal, discards = list(dealt.hands), list(dealt.personal), list(dealt.discards)
    hands[other] ^= moved
    personal[other] ^= moved
    discards[other] ^= moved
    swapped = Dealt(dealt.talon, (hands[0], hands[1]), (personal[0], personal[1]), (discards[0], discards[1]))
    return swapped, {laid, kept}


def revealed(game: Game, swapped: set[int]) -> bool:
    """Whether a swapped card may be seen now: the talon exposed, or left in
    a pile at the play's start (a Solo's, to the defender, in view of both:
    docs/rules.md §3.5, docs/views.md), or one of them played."""
    played = set(game.position.move_stack) if game.position is not None else set()
    talon = swapped & set(game.dealt.talon) and (game.take is not None or game.phase in ("take", "play"))
    return bool(talon or played & swapped)


@pytest.mark.parametrize("switches", [{}, SWITCHES], ids=["default", "switches"])
@pytest.mark.parametrize("swap", [talon_swap, discard_swap])
def test_no_observation_shows_a_hidden_card(
    swap: Callable[[Dealt, int], tuple[Dealt, set[int]]], switches: dict[str, Any]
) -> None:
    """Two deals that differ only in cards a seat cannot see, played the
    same way, give that seat the same observation and action mask at every
    step until a swapped card is revealed, or the other makes a move his
    other cards would not allow; with the defender's announcements and
    Kontra on too."""
    kinds: dict[str, int] = {}
    for seed in range(16):
        rng = random.Random(seed)
        seat = seed % 2
        agent = ("forehand", "dealer")[seat]
        first, second = raw_env(phases="game", **switches), raw_env(phases="game", **switches)
        first.reset(seed=seed)
        second.reset(seed=seed)
        assert first.game is not None
        dealt, swapped = swap(first.game.dealt, seat)
        assert dealt.held(1 - seat) != first.game.dealt.held(1 - seat)
        second.game = Game(dealt, first.rules)
        while not first.game.over and not revealed(first.game, swapped):
            mine, again = first.observe(agent), second.observe(agent)
            assert (mine["observation"] == again["observation"]).all()
            assert (mine["action_mask"] == again["action_mask"]).all()
            kinds[first.game.phase] = kinds.get(first.game.phase, 0) + 1
            assert first.agent_selection == second.agent_selection
            option = rng.choice(first.game.decision().options)
            options = second.game.decision().options
            if option not in options:
                break
            first.step(first.game.decision().options.index(option))
            second.step(options.index(option))
    assert kinds.get("bid", 0) >= 16 and kinds.get("announce", 0) >= 16, kinds
    assert swap is talon_swap or kinds.get("play", 0) >= 100, kinds
    assert not switches or kinds.get("kontra", 0) >= 4, kinds
