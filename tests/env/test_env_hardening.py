"""The environments against misuse and against a learner's shortcuts: the
OpenSpiel game deals every deal a card at a time, uniformly (that what a
seat knows does not pin down the other's hand is test_openspiel.py's
hidden-card test, at every step); it refuses chance outcomes
that are not cards still to deal; PettingZoo refuses an action that is not
an integer and answers ``step`` and ``last`` after the end as PettingZoo
does.  Skipped without the extra ``kosolve[env]``."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

from pettingzoo.utils.env_logger import EnvLogger  # noqa: E402

from kosolve.dealing import deal_as_dealt  # noqa: E402
from kosolve.env.kosakeln_v0 import env, raw_env  # noqa: E402
from kosolve.env.openspiel import CHANCE_NODES  # noqa: E402
from kosolve.model.cards import ALL_CARDS, N_CARDS, cards_of, mask_of  # noqa: E402


def dealt_state(cards: list[int], params: dict[str, str] | None = None) -> Any:
    state = pyspiel.load_game("python_kosakeln", params or {}).new_initial_state()
    for card in cards:
        state.apply_action(card)
    return state


def random_cards(seed: int) -> list[int]:
    return random.Random(seed).sample(range(N_CARDS), CHANCE_NODES)


def test_each_card_is_dealt_uniformly_from_the_cards_left() -> None:
    game = pyspiel.load_game("python_kosakeln")
    assert game.max_chance_outcomes() == N_CARDS
    assert game.max_chance_nodes_in_history() >= CHANCE_NODES
    state = game.new_initial_state()
    rng = random.Random(8)
    dealt: list[int] = []
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        left = sorted(cards_of(ALL_CARDS & ~mask_of(dealt)))
        assert [card for card, _ in outcomes] == left == state.legal_actions()
        assert all(p == pytest.approx(1 / len(left)) for _, p in outcomes)
        dealt.append(rng.choice(left))
        state.apply_action(dealt[-1])
    assert len(dealt) == CHANCE_NODES == N_CARDS - 8


def test_any_deal_is_dealt_by_its_cards() -> None:
    """A deal of the table's own dealing, whatever it is, comes out of the
    chance nodes dealing its talon, hands and personal cards."""
    for seed in range(3):
        table = deal_as_dealt(random.Random(seed))
        cards = [*table.talon, *cards_of(table.hands[0]), *cards_of(table.hands[1]), *cards_of(table.personal[0])]
        dealt = dealt_state(cards).game.dealt
        assert (dealt.talon, dealt.hands, dealt.personal) == (table.talon, table.hands, table.personal)
        assert [d.bit_count() for d in dealt.discards] == [8, 8]


@pytest.mark.parametrize("outcome", [N_CARDS, 1000, -5, "dealt"])
def test_a_chance_outcome_that_is_no_card_left_is_refused(outcome: int | str) -> None:
    state = dealt_state([11])
    with pytest.raises(ValueError, match="not a card still to deal"):
        state.apply_action(11 if outcome == "dealt" else outcome)
    assert state.history() == [11] and state.is_chance_node()


def test_a_game_in_progress_serialises() -> None:
    game = pyspiel.load_game("python_kosakeln")
    state = dealt_state(random_cards(5))
    rng = random.Random(5)
    for _ in range(12):
        state.apply_action(rng.choice(state.legal_actions()))
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    assert again.history() == state.history() and str(again) == str(state)
    assert again.information_state_string(0) == state.information_state_string(0)


@pytest.mark.parametrize("action", [1.7, "1", np.float32(0), True, np.bool_(True)])
def test_an_action_that_is_not_an_integer_is_refused(action: object) -> None:
    environment = raw_env()
    environment.reset(seed=1)
    with pytest.raises(TypeError, match="an action is an int"):
        environment.step(action)
    assert environment.game is not None and environment.game.moves == []
    environment.step(np.int64(0))
    assert len(environment.game.moves) == 1


def test_the_wrapped_environment_refuses_true() -> None:
    environment = env()
    environment.reset(seed=1)
    with pytest.raises(TypeError, match="an action is an int"):
        environment.step(True)
    assert environment.unwrapped.game.moves == []


@pytest.mark.parametrize("wrapped", [False, True])
def test_after_the_end_step_warns_and_last_reports_the_end(wrapped: bool) -> None:
    environment: Any = env(phases="play") if wrapped else raw_env(phases="play")
    environment.reset(seed=2)
    rng = random.Random(2)
    for _ in environment.agent_iter():
        observation, _, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            environment.step(None)
        else:
            environment.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
    assert environment.agents == []
    observation, reward, terminated, truncated, info = environment.last()
    assert (reward, terminated, truncated, info) == (0, True, False, {})
    assert observation["action_mask"].sum() == 0
    assert environment.last(observe=False)[0] is None
    EnvLogger.mqueue.clear()
    environment.step(0)
    environment.step(None)
    assert len(EnvLogger.mqueue) == 2 and "after all agents are terminated" in EnvLogger.mqueue[0]


@pytest.mark.parametrize("switch", ["defender_announcements", "kontra"])
@pytest.mark.parametrize("value", [1, "yes", None])
def test_a_rule_switch_of_the_pettingzoo_environment_must_be_a_bool(switch: str, value: object) -> None:
    given: dict[str, Any] = {switch: value}
    with pytest.raises(TypeError, match=f"{switch} must be a bool"):
        raw_env(**given)
    numpy_true: dict[str, Any] = {switch: np.bool_(True)}
    assert raw_env(**numpy_true).rules == raw_env(**{**numpy_true, switch: True}).rules
