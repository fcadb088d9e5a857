"""The OpenSpiel game ``python_kosakeln``: OpenSpiel's own random
simulation test (with serialisation) for the whole game and the play
alone; states serialise and deserialise to the same state; an OpenSpiel
algorithm (MCTS) plays kosolve's heuristic bot in the bundled example;
the information state shows no hidden card.  Skipped without the extra
``kosolve[env]``."""

from __future__ import annotations

import importlib.util
import random
import sys

import pytest

pyspiel = pytest.importorskip("pyspiel")

from support import EXAMPLES  # noqa: E402

import kosolve.env.openspiel  # noqa: E402, F401 - registers python_kosakeln
from kosolve.model.cards import hand_names  # noqa: E402


@pytest.mark.parametrize("params", [{}, {"phases": "play"}, {"reward": "win"}, {"reward": "regret"}])
def test_openspiel_random_sim_test(params: dict[str, str]) -> None:
    game = pyspiel.load_game("python_kosakeln", params)
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)


def test_a_state_serialises_to_itself() -> None:
    game = pyspiel.load_game("python_kosakeln")
    state = game.new_initial_state()
    state.apply_action(17)
    rng = random.Random(1)
    for _ in range(20):
        state.apply_action(rng.choice(state.legal_actions()))
    text = pyspiel.serialize_game_and_state(game, state)
    again = pyspiel.deserialize_game_and_state(text)[1]
    assert str(again) == str(state) and again.history() == state.history()


def test_mcts_plays_a_kosolve_bot() -> None:
    path = EXAMPLES.parent / "examples" / "openspiel_mcts.py"
    spec = importlib.util.spec_from_file_location("openspiel_mcts", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["openspiel_mcts"] = module
    spec.loader.exec_module(module)
    results = module.play(games=2, simulations=5)
    assert len(results) == 2 and all(sum(r) == 0 for r in results)


def test_the_information_state_shows_no_hidden_card() -> None:
    game = pyspiel.load_game("python_kosakeln")
    state = game.new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    hidden = set(hand_names(state.game.dealt.held(1))) - set(hand_names(state.game.dealt.laid(1)))
    text = state.information_state_string(0)
    named = {word.strip('"[],{}:') for word in text.split()}
    seen = set(hand_names(state.game.dealt.laid(1) & state.game.knowledge(0).other_face_up))
    assert not (named & hidden) - seen
    assert len(state.information_state_tensor(0)) == game.information_state_tensor_size()
