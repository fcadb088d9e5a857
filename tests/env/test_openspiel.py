"""The OpenSpiel game ``python_kosakeln``: OpenSpiel's own random
simulation test (with serialisation) for the whole game and the play
alone; states serialise and deserialise to the same state; the returns are
the game points of the same decisions replayed on a game of
:mod:`kosolve.play.game`, also for an OpenSpiel algorithm (MCTS) playing
kosolve's heuristic bot in the bundled example; no information state or
observation shows a card the player cannot see, at any step; OpenSpiel's
observation types are served or refused; a step asks the game for its
decision once; all of it with the defender's announcements and Kontra
on too, and the legal actions are the game's options; an action that is
not an integer is refused.  Skipped without the extra ``kosolve[env]``."""

from __future__ import annotations

import importlib.util
import random
import sys
from typing import Any, Final

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.observation import INFO_STATE_OBS_TYPE, make_observation  # noqa: E402
from support import EXAMPLES  # noqa: E402
from support.counting import DecisionCount  # noqa: E402
from support.rewards import replayed_rewards  # noqa: E402

from kosolve.env.encoding import OBSERVATION_SIZE, PIECES  # noqa: E402
from kosolve.env.openspiel import CHANCE_NODES, dealt_from  # noqa: E402 - registers python_kosakeln
from kosolve.model.cards import ALL_CARDS, N_CARDS, cards_of, mask_of  # noqa: E402
from kosolve.model.dealt import HAND_SIZE  # noqa: E402
from kosolve.model.game import DEFAULT_RULES, TALON_SIZE, Rules  # noqa: E402
from kosolve.model.view import TAROCKS  # noqa: E402
from kosolve.play.game import Game  # noqa: E402

SWITCHES: Final[dict[str, Any]] = {"defender_announcements": True, "kontra": True}
"""The rule switches that add decisions, both on."""


@pytest.mark.parametrize(
    "params",
    [{}, {"phases": "play"}, {"reward": "win"}, {"reward": "regret"}, SWITCHES, {"phases": "play", **SWITCHES}],
)
def test_openspiel_random_sim_test(params: dict[str, Any]) -> None:
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


def replayed_returns(history: list[int], reward: str, rules: Rules = DEFAULT_RULES) -> list[float]:
    """The returns a game should have, worked out without the state: its
    chance outcomes dealt by :func:`dealt_from`, its decisions replayed on a
    game of :mod:`kosolve.play.game` under ``rules``."""
    game = Game(dealt_from(history[:CHANCE_NODES]), rules)
    for action in history[CHANCE_NODES:]:
        game.choose(action)
    return replayed_rewards(game, reward)


@pytest.mark.parametrize("reward", ["points", "win", "regret"])
def test_the_returns_are_the_replayed_games_points(reward: str) -> None:
    game = pyspiel.load_game("python_kosakeln", {"reward": reward})
    played = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        assert state.returns() == replayed_returns(state.history(), reward)
        played += state.game.deal is not None
    assert played >= 3  # not only games both passed


@pytest.mark.parametrize("reward", ["points", "win"])
def test_the_rule_switches_play_to_the_end_with_the_replayed_games_returns(reward: str) -> None:
    """Random play to the end with the defender's announcements and Kontra
    on: the legal actions are the game's options at every step, the
    defender announces and both say Kontra, and the returns are those of
    the same decisions replayed on a game under those rules."""
    game = pyspiel.load_game("python_kosakeln", {"reward": reward, **SWITCHES})
    rules = Rules(**SWITCHES)
    kinds: set[tuple[str, bool]] = set()
    for seed in range(8):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if not state.is_chance_node():
                decision = state.game.decision()
                assert state.current_player() == decision.seat
                assert state.legal_actions() == list(range(len(decision.options)))
                assert state.legal_actions_mask() == [1] * len(decision.options) + [0] * (
                    game.num_distinct_actions() - len(decision.options)
                )
            state.apply_action(rng.choice(state.legal_actions()))
        assert state.game.rules == rules
        assert state.returns() == replayed_returns(state.history(), reward, rules)
        moves = state.game.moves
        kinds |= {(move.kind, move.seat == state.game.declarer) for move in moves if move.option != "done"}
        assert len(state.history()) - CHANCE_NODES <= game.max_game_length()
    assert {("announce", False), ("kontra", False), ("kontra", True)} <= kinds, kinds


@pytest.mark.parametrize("value", [1, "yes", 0.5])
def test_a_rule_switch_that_is_not_a_bool_is_refused(value: object) -> None:
    with pytest.raises(pyspiel.SpielError, match="kontra"):
        pyspiel.load_game("python_kosakeln", {"kontra": value})


@pytest.mark.parametrize("action", [True, False, np.bool_(True), 1.0, "1", np.float32(0), None])
def test_an_action_that_is_not_an_integer_is_refused(action: object) -> None:
    state = dealt_state(pyspiel.load_game("python_kosakeln"), random_cards(2))
    before = state.history()
    with pytest.raises(TypeError, match="an action is an int"):
        state.apply_action(action)
    assert state.history() == before
    state.apply_action(np.int64(0))
    assert state.history() == [*before, 0]
    chance = pyspiel.load_game("python_kosakeln").new_initial_state()
    with pytest.raises(TypeError, match="an action is an int"):
        chance.apply_action(True)
    assert chance.history() == []


def test_mcts_plays_a_kosolve_bot() -> None:
    path = EXAMPLES.parent / "examples" / "openspiel_mcts.py"
    spec = importlib.util.spec_from_file_location("openspiel_mcts", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["openspiel_mcts"] = module
    spec.loader.exec_module(module)
    states = module.play(games=2, simulations=5, phases="game")
    assert len(states) == 2
    for state in states:
        assert state.is_terminal() and state.returns() == replayed_returns(state.history(), "points")


def random_cards(seed: int) -> list[int]:
    return random.Random(seed).sample(range(N_CARDS), CHANCE_NODES)


def talon_swap(seat: int, cards: list[int]) -> tuple[list[int], set[int]] | None:
    """Chance outcomes that differ from ``cards`` only where ``seat`` cannot
    see until the talon is exposed: the talon's top card swapped with one of
    the other's personal cards; and the two cards swapped."""
    if seat == 0:  # the dealer's personal cards are the ones left
        other = min(cards_of(ALL_CARDS & ~mask_of(cards)))
        return [other, *cards[1:]], {cards[0], other}
    return [cards[PERSONAL], *cards[1:PERSONAL], cards[0], *cards[PERSONAL + 1 :]], {cards[0], cards[PERSONAL]}


def discard_swap(seat: int, cards: list[int]) -> tuple[list[int], set[int]] | None:
    """Chance outcomes that differ from ``cards`` only where ``seat`` never
    sees: a card the other lays away face down swapped with a personal card
    he keeps, where his discard then lays that one away instead; None if
    no such pair is found."""
    other = 1 - seat
    dealt = dealt_from(cards)
    hand = slice(TALON_SIZE + other * HAND_SIZE, TALON_SIZE + (other + 1) * HAND_SIZE)
    left = cards_of(ALL_CARDS & ~mask_of(cards))
    personal = cards[PERSONAL:] if other == 0 else left
    for laid in cards_of(dealt.laid(other) & ~TAROCKS):
        for kept in cards_of(dealt.personal[other] & ~TAROCKS):
            swapped = [kept if card == laid else card for card in cards[hand]]
            if other == 0:
                again = [*cards[: hand.start], *swapped, *cards[hand.stop : PERSONAL]]
                again += [laid if card == kept else card for card in personal]
            else:
                again = [*cards[: hand.start], *swapped, *cards[hand.stop :]]
            moved = (1 << laid) | (1 << kept)
            if dealt_from(again).laid(other) == dealt.laid(other) ^ moved:
                return again, {laid, kept}
    return None


PERSONAL: Final = TALON_SIZE + 2 * HAND_SIZE
"""Where the forehand's personal cards are dealt."""


def dealt_state(game: Any, cards: list[int]) -> Any:
    state = game.new_initial_state()
    for card in cards:
        state.apply_action(card)
    return state


def revealed(state: Any, swapped: set[int]) -> bool:
    """Whether a swapped card may be seen now: the talon exposed, or left in
    a pile at the play's start (a Solo's, to the defender, in view of both:
    docs/rules.md §3.5, docs/views.md), or one of them played."""
    game = state.game
    played = set(game.position.move_stack) if game.position is not None else set()
    talon = swapped & set(game.dealt.talon) and (game.take is not None or game.phase in ("take", "play"))
    return bool(talon or played & swapped)


@pytest.mark.parametrize("switches", [{}, SWITCHES], ids=["default", "switches"])
@pytest.mark.parametrize("swap", [talon_swap, discard_swap])
def test_no_information_state_shows_a_hidden_card(swap: Any, switches: dict[str, Any]) -> None:
    """Two deals that differ only in cards a seat cannot see, played the
    same way, give that seat the same information state and observation,
    tensors and strings, and the same legal actions, at every step until a
    swapped card is revealed, or the other makes a move his other cards
    would not allow; with the defender's announcements and Kontra on too."""
    game = pyspiel.load_game("python_kosakeln", switches)
    kinds: dict[str, int] = {}
    for seed in range(16):
        rng = random.Random(seed)
        seat = seed % 2
        cards = random_cards(seed)
        found = swap(seat, cards)
        if found is None:
            continue
        other_cards, swapped = found
        first, second = dealt_state(game, cards), dealt_state(game, other_cards)
        assert first.game.dealt.held(1 - seat) != second.game.dealt.held(1 - seat)
        while not first.is_terminal() and not revealed(first, swapped):
            assert first.information_state_string(seat) == second.information_state_string(seat)
            assert first.information_state_tensor(seat) == second.information_state_tensor(seat)
            assert first.observation_string(seat) == second.observation_string(seat)
            assert first.observation_tensor(seat) == second.observation_tensor(seat)
            kind = first.game.phase
            kinds[kind] = kinds.get(kind, 0) + 1
            player = first.current_player()
            assert player == second.current_player()
            if player == seat:
                assert first.legal_actions() == second.legal_actions()
            action = rng.choice(first.legal_actions())
            named = {second.action_to_string(player, a): a for a in second.legal_actions()}
            again = named.get(first.action_to_string(player, action))
            if again is None:
                break
            first.apply_action(action)
            second.apply_action(again)
    assert kinds.get("bid", 0) >= 16 and kinds.get("announce", 0) >= 16, kinds
    assert swap is talon_swap or kinds.get("play", 0) >= 100, kinds
    assert not switches or kinds.get("kontra", 0) >= 4, kinds


@pytest.mark.parametrize("perfect_recall", [True, False])
def test_the_standard_observation_types_are_served(perfect_recall: bool) -> None:
    game = pyspiel.load_game("python_kosakeln")
    state = dealt_state(game, random_cards(4))
    rng = random.Random(4)
    for _ in range(6):
        state.apply_action(rng.choice(state.legal_actions()))
    iig = INFO_STATE_OBS_TYPE if perfect_recall else pyspiel.IIGObservationType(perfect_recall=False)
    observation = make_observation(game, iig)
    for player in (0, 1):
        observation.set_from(state, player)
        expected = state.information_state_tensor(player) if perfect_recall else state.observation_tensor(player)
        assert observation.tensor.tolist() == expected
        assert [(name, piece.size) for name, piece in observation.dict.items()] == list(PIECES)
        assert sum(piece.size for piece in observation.dict.values()) == OBSERVATION_SIZE
    assert game.information_state_tensor_size() == game.observation_tensor_size() == OBSERVATION_SIZE


@pytest.mark.parametrize(
    ("public_info", "private_info"),
    [
        (True, pyspiel.PrivateInfoType.NONE),
        (True, pyspiel.PrivateInfoType.ALL_PLAYERS),
        (False, pyspiel.PrivateInfoType.SINGLE_PLAYER),
    ],
)
def test_other_observation_types_are_refused(public_info: bool, private_info: Any) -> None:
    game = pyspiel.load_game("python_kosakeln")
    iig = pyspiel.IIGObservationType(perfect_recall=False, public_info=public_info, private_info=private_info)
    with pytest.raises(ValueError, match="public_info=True, private_info=SINGLE_PLAYER"):
        make_observation(game, iig)


def test_a_step_asks_the_game_for_its_decision_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The player, the legal actions and their names, both players'
    information states and observations: one decision built a step."""
    count = DecisionCount(monkeypatch)
    state = dealt_state(pyspiel.load_game("python_kosakeln", SWITCHES), random_cards(6))
    rng = random.Random(6)
    steps = 0
    while not state.is_terminal():
        count.asked = 0
        player = state.current_player()
        actions = state.legal_actions()
        names = [state.action_to_string(player, a) for a in actions]
        for seat in (0, 1):
            state.information_state_tensor(seat), state.information_state_string(seat)
            state.observation_tensor(seat), state.observation_string(seat)
        assert count.asked == 1 and len(names) == len(actions)
        state.apply_action(rng.choice(actions))
        steps += 1
    assert steps > 2
