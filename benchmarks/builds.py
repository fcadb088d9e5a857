"""Two builds of the search side by side, in one process.

The engine of a git revision (``--base``, default HEAD) and of the working
tree are each built into ``build/builds/`` under a package name of its own
(``kosolve_base.engine``, ``kosolve_work.engine``), with the same compiler
flags, and loaded into one process.  Each run, every build solves the whole
set in turn (the order rotating from run to run) with a fresh table of its
own; each deal's fastest of ``--repeat`` runs counts.  Whole sets in turn,
not deal by deal: the other build's table would evict this one's.  On a
shared machine this is the only fair comparison (docs/benchmarks.md, "The
machine"); the builds must give every card the same value, or the script
stops.

    python benchmarks/builds.py --deals 100 --threads 1 --repeat 3
    python benchmarks/builds.py --deals 100 --hard --base 1a2b3c4 --threads 2
"""

from __future__ import annotations

import argparse
import importlib
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from kosolve.analysis.solving import search_args
from kosolve.dealing import deal_games, deal_hard_games

ROOT = Path(__file__).resolve().parent.parent
ENGINE = "solver/engine"
EXTENSIONS = ("_table", "_search", "_score")
BUILD_SCRIPT = """
import sys
from Cython.Build import cythonize
from setuptools import Extension, setup
args = sys.argv[1].split()
setup(
    script_args=["build_ext", "--inplace", "-q"],
    ext_modules=cythonize(
        [Extension(f"{sys.argv[2]}.engine.{name}", [f"{sys.argv[2]}/engine/{name}.pyx"], extra_compile_args=args,
                   extra_link_args=["-pthread"]) for name in sys.argv[3:]],
        compiler_directives={"language_level": 3, "boundscheck": False, "wraparound": False,
                             "initializedcheck": False, "cdivision": True, "nonecheck": False},
        include_path=["."], quiet=True,
    ),
)
"""


def compile_args() -> str:
    flags: set[str] = set()
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("flags"):
            flags = set(line.partition(":")[2].split())
            break
    return " ".join(["-O3", "-pthread"] + [f"-m{flag}" for flag in ("popcnt", "bmi2") if flag in flags])


def engine_files(revision: str | None) -> dict[str, str]:
    """The engine's sources at ``revision`` (the working tree for None)."""
    if revision is None:
        return {p.name: p.read_text() for p in (ROOT / ENGINE).iterdir() if p.suffix in (".pyx", ".pxd", ".py")}
    names = subprocess.run(
        ["git", "ls-tree", "--name-only", revision, f"{ENGINE}/"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.split()
    return {
        Path(name).name: subprocess.run(
            ["git", "show", f"{revision}:{name}"], cwd=ROOT, check=True, capture_output=True, text=True
        ).stdout
        for name in names
        if Path(name).suffix in (".pyx", ".pxd", ".py")
    }


def build(package: str, revision: str | None) -> Any:
    """Build the engine of ``revision`` as ``package.engine``; its Solver."""
    home = ROOT / "build" / "builds" / package
    shutil.rmtree(home, ignore_errors=True)
    (home / package / "engine").mkdir(parents=True)
    (home / package / "__init__.py").write_text("")
    for name, text in engine_files(revision).items():
        text = re.sub(r"\bkosolve\.engine\b", f"{package}.engine", text)
        if name == "__init__.py":
            text = ""  # the engine's re-exports would load the other build's names
        (home / package / "engine" / name).write_text(text)
    built = subprocess.run(
        [sys.executable, "-c", BUILD_SCRIPT, compile_args(), package, *EXTENSIONS],
        cwd=home,
        capture_output=True,
        text=True,
    )
    if built.returncode:
        raise SystemExit(f"building {revision or 'the working tree'} failed:\n{built.stdout}{built.stderr}")
    sys.path.insert(0, str(home))
    return importlib.import_module(f"{package}.engine._search").Solver


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", default="HEAD", help="the git revision to compare against (default HEAD)")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hard", action="store_true", help="the hard set (both hands of 8 or more tarocks)")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--tt-mb", type=float, default=8.0)
    args = parser.parse_args()
    solvers = {"base": build("kosolve_base", args.base), "work": build("kosolve_work", None)}
    deals = deal_hard_games(args.deals, args.seed) if args.hard else deal_games(args.deals, args.seed)
    positions = [search_args(d.position()) for d in deals]
    best = {name: [float("inf")] * len(positions) for name in solvers}
    nodes = dict.fromkeys(solvers, 0)
    answers: dict[str, list[object]] = {name: [] for name in solvers}
    names = list(solvers)
    for run in range(args.repeat):
        for name in names[run % 2 :] + names[: run % 2]:
            solver = solvers[name](args.tt_mb, threads=args.threads)
            for index, position in enumerate(positions):
                before = solver.stats["nodes"]
                start = time.perf_counter()
                moves = solver.move_values(*position)
                best[name][index] = min(best[name][index], (time.perf_counter() - start) * 1000)
                if run == 0:
                    nodes[name] += solver.stats["nodes"] - before
                    answers[name].append(sorted(moves))
    if answers["base"] != answers["work"]:
        raise SystemExit("the builds disagree")
    kind = "hard deals" if args.hard else "deals"
    print(
        f"{len(positions)} {kind} of seed {args.seed}, {args.threads} thread(s), fastest of {args.repeat}, "
        f"base {args.base} against the working tree"
    )
    print(f"{'build':>6}{'median ms':>11}{'p95 ms':>9}{'p99 ms':>9}{'total ms':>10}{'nodes':>14}")
    for name in names:
        times = sorted(best[name])
        p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
        p99 = times[min(len(times) - 1, round(0.99 * (len(times) - 1)))]
        print(f"{name:>6}{statistics.median(times):>11.2f}{p95:>9.1f}{p99:>9.1f}{sum(times):>10.0f}{nodes[name]:>14,}")


if __name__ == "__main__":
    main()
