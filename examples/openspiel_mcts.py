"""OpenSpiel's MCTS bot against kosolve's heuristic bot in Kosakeln
(``import kosolve.env.openspiel`` registers the game ``python_kosakeln``).

OpenSpiel's MCTS searches the true state it is given (it is no
information-set search), so it is a strong, slightly clairvoyant opponent
here; the kosolve bot decides from its seat alone.

    pip install "kosolve[env]"
    python examples/openspiel_mcts.py --games 2 --simulations 50
"""

from __future__ import annotations

import argparse

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import kosolve.env.openspiel  # noqa: F401 - registers python_kosakeln
from kosolve.play.bots import make_bot


def play(games: int, simulations: int, seed: int = 0, phases: str = "play") -> list[pyspiel.State]:
    """The final states of ``games`` games: MCTS as the forehand, then as the dealer."""
    game = pyspiel.load_game("python_kosakeln", {"phases": phases})
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    results = []
    for number in range(games):
        mcts_seat = number % 2
        searcher = mcts.MCTSBot(game, uct_c=2.0, max_simulations=simulations, evaluator=evaluator, random_state=rng)
        kosolve_bot = make_bot("heuristic")
        state = game.new_initial_state()
        while state.is_chance_node():  # the deal, a card at a time
            cards, chances = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(cards, p=chances)))
        kosolve_bot.start(seed + number, 1 - mcts_seat)
        while not state.is_terminal():
            if state.current_player() == mcts_seat:
                state.apply_action(searcher.step(state))
            else:
                state.apply_action(kosolve_bot.decide(state.decision()))
        results.append(state)
        print(f"game {number + 1}: MCTS as the {('forehand', 'dealer')[mcts_seat]}, returns {state.returns()}")
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--simulations", type=int, default=50)
    parser.add_argument("--phases", choices=("game", "play"), default="play")
    args = parser.parse_args()
    play(args.games, args.simulations, phases=args.phases)


if __name__ == "__main__":
    main()
