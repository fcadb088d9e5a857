"""The click latency of ``kosolve serve``: the web application runs on a free
port of 127.0.0.1, and each click is one ``POST /api/v1/position`` over
HTTP, timed from the request sent to the answer read.  On each realistic
whole deal (:func:`kosolve.dealing.deal_games`) a player clicks
through the hand from the first card to the last, the best card three
times in four and any legal card otherwise; every position of the hand is
a click, the first one at trick 1 included.

Usage: ``python benchmarks/web_latency.py [--deals N] [--seed S] [--tt-mb MB] [--json]``
(needs the extra ``kosolve[web]``).  Also prints the same positions
answered in-process (``Service.position``, no HTTP), to tell the web
server's share from the solver's.  Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
import urllib.request
from typing import Any

from kosolve.analysis.solving import DEFAULT_BUDGET_MB
from kosolve.dealing import deal_games
from kosolve.model.deal import deal_to_json
from kosolve.web.api import Service
from kosolve.web.app import serving

BEST_SHARE = 0.75
"""How often the simulated player clicks a best card."""


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered) + 0.5) - 1))]


def summary(times_ms: list[float]) -> dict[str, float]:
    return {
        "clicks": len(times_ms),
        "median_ms": round(statistics.median(times_ms), 2),
        "p95_ms": round(percentile(times_ms, 0.95), 2),
        "max_ms": round(max(times_ms), 2),
    }


def click(url: str, deal: dict[str, object], play: list[str]) -> tuple[float, dict[str, Any]]:
    body = json.dumps({"deal": deal, "play": play}).encode()
    request = urllib.request.Request(url + "api/v1/position", data=body, headers={"Content-Type": "application/json"})
    start = time.perf_counter()
    with urllib.request.urlopen(request, timeout=120) as response:
        answer: dict[str, Any] = json.loads(response.read())
    return (time.perf_counter() - start) * 1000, answer


def choose(answer: dict[str, Any], rng: random.Random) -> str:
    moves = answer["view"]["moves"]
    best = [m["card"] for m in moves if m["loss"] == 0]
    card: str = rng.choice(best) if rng.random() < BEST_SHARE else rng.choice(moves)["card"]
    return card


def run(deals: int, seed: int, tt_mb: float) -> dict[str, object]:
    rng = random.Random(seed)
    games = [deal_to_json(deal) for deal in deal_games(deals, seed)]
    lines: list[tuple[dict[str, object], list[str]]] = []
    http: list[float] = []
    first: list[float] = []
    solve_ms: list[float] = []
    with serving(Service(tt_mb=tt_mb)) as url:
        for index, deal in enumerate(games):
            play: list[str] = []
            while True:
                elapsed, answer = click(url, deal, play)
                http.append(elapsed)
                solve_ms.append(answer["report"]["stats"]["ms"])
                lines.append((deal, list(play)))
                if not play:
                    first.append(elapsed)
                if answer["view"]["over"]:
                    break
                play.append(choose(answer, rng))
            print(f"\rdeal {index + 1}/{deals}", end="\n" if index + 1 == deals else "", file=sys.stderr, flush=True)
    # The same positions in the same order, without HTTP, from a fresh table.
    service = Service(tt_mb=tt_mb)
    direct = []
    for deal, play in lines:
        start = time.perf_counter()
        service.position({"deal": deal, "play": play})
        direct.append((time.perf_counter() - start) * 1000)
    return {
        "deals": deals,
        "seed": seed,
        "tt_mb": tt_mb,
        "http": summary(http),
        "http_first_click": summary(first),
        "in_process": summary(direct),
        "search_ms": summary(solve_ms),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description="Time clicks through kosolve serve's API on realistic whole deals.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("--deals", type=int, default=20, help="whole deals to click through")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and of the clicks")
    parser.add_argument("--tt-mb", type=float, default=DEFAULT_BUDGET_MB, help="memory for all the tables in MB")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    report = run(args.deals, args.seed, args.tt_mb)
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(f"{args.deals} realistic whole deals (seed {args.seed}), clicked through to the end, {args.tt_mb:g} MB")
    for key, label in (
        ("http", "every click, over HTTP"),
        ("http_first_click", "the first click (trick 1), over HTTP"),
        ("in_process", "every click, in-process (no HTTP)"),
        ("search_ms", "the value search of each click (stats.ms)"),
    ):
        row: Any = report[key]
        print(
            f"  {label:<44} {row['clicks']:>5} clicks  median {row['median_ms']:7.2f} ms"
            f"  p95 {row['p95_ms']:7.2f} ms  max {row['max_ms']:7.2f} ms"
        )


if __name__ == "__main__":
    main()
