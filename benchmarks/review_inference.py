"""How much inference (``kosolve review --infer W``) changes the verdicts.

Played hands from the review benchmark's dealer and player
(:func:`kosolve.tools.bench_review.played_hand`) are reviewed with every
world alike and with each weight: the script prints, per weight, the cards
whose verdict changed, those whose best card by what the player knew
changed, the mean change of a card's loss by what he knew, and the time
against the uniform review's.

    python benchmarks/review_inference.py --hands 6 --samples 200 --weights 0.5 0.25
"""

from __future__ import annotations

import argparse
import random
import time

from kosolve.review.judging import Review, review
from kosolve.tools.bench_review import played_hand


def timed(deal: object, taken: int, samples: int, jobs: int, infer: float) -> tuple[Review, float]:
    start = time.perf_counter()
    result = review(deal, samples=samples, jobs=jobs, taken=taken, infer=infer)  # type: ignore[arg-type]
    return result, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hands", type=int, default=6)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--weights", type=float, nargs="+", default=[0.5, 0.25])
    args = parser.parse_args()
    rng = random.Random(args.seed)
    games = [played_hand(rng) for _ in range(args.hands)]
    uniform = [timed(deal, taken, args.samples, args.jobs, 1.0) for deal, taken in games]
    judged = sum(not c.forced for result, _ in uniform for c in result.cards)
    base_s = sum(seconds for _, seconds in uniform)
    print(f"{args.hands} hands, {judged} cards judged, up to {args.samples} worlds a card; uniform: {base_s:.1f} s")
    for weight in args.weights:
        verdicts = bests = 0
        shift = 0.0
        seconds = 0.0
        for (deal, taken), (plain, _) in zip(games, uniform, strict=True):
            weighted, spent = timed(deal, taken, args.samples, args.jobs, weight)
            seconds += spent
            for a, b in zip(plain.cards, weighted.cards, strict=True):
                if a.forced:
                    continue
                verdicts += a.verdict != b.verdict
                bests += a.best != b.best
                shift += abs(a.knew_loss - b.knew_loss)
        print(
            f"  W={weight:g}: {verdicts} verdicts changed ({100 * verdicts / judged:.1f}%),"
            f" best card changed on {bests}, mean |change| of the loss {shift / judged / 3:.3f} points,"
            f" {seconds:.1f} s ({seconds / base_s:.1f}x)"
        )


if __name__ == "__main__":
    main()
