"""The PettingZoo environment: PettingZoo's own API and seed tests for the
whole game and the play alone, every reward; zero-sum rewards; the hook
to the exact value; an observation that holds what the seat knows and no
more.  Skipped without the extra ``kosolve[env]``."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from kosolve.analysis.solving import solve
from kosolve.env.kosakeln_v0 import MAX_ACTIONS, env, raw_env
from kosolve.play.bots import PimcBot
from kosolve.play.game import Game


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("phases", ["game", "play"])
@pytest.mark.parametrize("reward", ["points", "win", "regret"])
def test_pettingzoo_api_test(phases: str, reward: str) -> None:
    api_test(env(phases=phases, reward=reward, render_mode="ansi"), num_cycles=200)


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: env(phases="game"), num_cycles=200)


def play_out(environment: Any, seed: int) -> dict[str, float]:
    """A game to its end with random legal actions; the rewards summed."""
    rng = random.Random(seed)
    environment.reset(seed=seed)
    totals = {agent: 0.0 for agent in environment.possible_agents}
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, _ = environment.last()
        totals[agent] += reward
        if terminated or truncated:
            environment.step(None)
            continue
        mask = observation["action_mask"]
        assert mask.shape == (MAX_ACTIONS,) and mask.sum() >= 1
        environment.step(rng.choice(np.flatnonzero(mask).tolist()))
    return totals


@pytest.mark.parametrize("reward", ["points", "win", "regret"])
def test_the_rewards_are_zero_sum_and_the_settlement(reward: str) -> None:
    for seed in range(4):
        environment = env(phases="game", reward=reward)
        totals = play_out(environment, seed)
        assert sum(totals.values()) == 0
        if reward == "points":
            game = environment.unwrapped.game
            settled = game.settlement.totals if game.settlement else (0, 0)
            assert list(totals.values()) == list(settled)


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


def test_an_observation_holds_no_hidden_card() -> None:
    """The other's hand and discards dealt anew within what the forehand
    knows give the forehand the same observation."""
    environment = raw_env(phases="game")
    checked = 0
    for seed in range(8):
        environment.reset(seed=seed)
        game = environment.game
        assert game is not None
        first = environment.observe("forehand")
        sampler = PimcBot()
        sampler.start(seed)
        for world in sampler._worlds_before_play(game.knowledge(0), 3, 0):
            if world.held(1) == game.dealt.held(1):
                continue
            environment.game = Game(world)
            again = environment.observe("forehand")
            assert (again["observation"] == first["observation"]).all()
            assert (again["action_mask"] == first["action_mask"]).all()
            checked += 1
    assert checked >= 8
