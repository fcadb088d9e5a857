"""The time of ``kosolve stats`` over a large results file (issue 34's
target: 100,000 result lines in under 10 s).

The file is made from a real one: the records of a batch (``--source``,
by default 300 realistic deals solved with ``--feasibility`` here, the
figures every goal adds to a line), repeated with new line numbers until
there are ``--lines`` of them, and the deals file the same way, so that
each record's SHA-256 is its deal line's and ``--deals`` joins.  Each
question is the whole command in a process of its own (its start and
imports included), the best of ``--repeat`` runs.

    python benchmarks/stats.py --lines 100000 --repeat 3
    python benchmarks/stats.py --source results.jsonl --source-deals deals.jsonl
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

COMMAND = "from kosolve.cli.stats import stats_command; stats_command(prog_name='kosolve stats')"
"""``kosolve stats`` in a process of its own, as the console script runs it."""
QUESTIONS = {
    "by contract: points, won": ["--by", "contract"],
    "by declarer.tarocks: won, Valat (--deals)": [
        "--deals",
        "{deals}",
        "--by",
        "declarer.tarocks",
        "--what",
        "won",
        "--what",
        "makeable.declarer.valat",
    ],
    "as JSON, with the SVG": ["--by", "contract", "--json", "--plot", "{folder}/bench.svg"],
}


def source(folder: Path, deals: int) -> tuple[Path, Path]:
    """A real batch to repeat: ``deals`` realistic deals solved with --feasibility, one job."""
    dealt, results = folder / "source-deals.jsonl", folder / "source-results.jsonl"
    if not results.exists():
        with dealt.open("w", encoding="utf-8") as out:
            subprocess.run(["kosolve", "deal", "--seed", "34", "-n", str(deals)], stdout=out, check=True)
        subprocess.run(
            ["kosolve", "batch", str(dealt), "-o", str(results), "--feasibility", "--jobs", "1", "-q"],
            stdout=subprocess.DEVNULL,
            check=True,
        )
    return results, dealt


def repeated(results: Path, deals: Path, lines: int, folder: Path) -> tuple[Path, Path]:
    """The results and deals files of ``lines`` deals, the source's repeated."""
    header, *records = results.read_text(encoding="utf-8").splitlines()
    by_line = {json.loads(record)["line"]: json.loads(record) for record in records}
    deal_lines = deals.read_text(encoding="utf-8").splitlines()
    big_results, big_deals = folder / f"results-{lines}.jsonl", folder / f"deals-{lines}.jsonl"
    with big_results.open("w", encoding="utf-8") as out, big_deals.open("w", encoding="utf-8") as deals_out:
        out.write(header + "\n")
        for number in range(1, lines + 1):
            original = (number - 1) % len(deal_lines) + 1
            deals_out.write(deal_lines[original - 1] + "\n")
            out.write(json.dumps({**by_line[original], "line": number}) + "\n")
    return big_results, big_deals


def best_time(args: list[str], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", COMMAND, *args], stdout=subprocess.DEVNULL, check=True)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=100_000, help="result lines to time over")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--folder", type=Path, default=Path("/work/runs/stats"), help="where the files go")
    parser.add_argument("--source", type=Path, help="a results file to repeat (made here when not given)")
    parser.add_argument("--source-deals", type=Path, help="the deals file it read")
    parser.add_argument("--source-size", type=int, default=300, help="the deals of the batch made here")
    options = parser.parse_args()
    options.folder.mkdir(parents=True, exist_ok=True)
    if options.source is None:
        options.source, options.source_deals = source(options.folder, options.source_size)
    results, deals = repeated(options.source, options.source_deals, options.lines, options.folder)
    size = results.stat().st_size / 2**20
    print(f"{options.lines:,} result lines ({size:.0f} MB), the best of {options.repeat} runs")
    for name, question in QUESTIONS.items():
        args = [str(results), *(arg.format(deals=deals, folder=options.folder) for arg in question)]
        print(f"  {name:45} {best_time(args, options.repeat):6.2f} s")


if __name__ == "__main__":
    main()
