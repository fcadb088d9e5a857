"""``kosolve arena``: a duplicate match between two bots, through
:func:`kosolve.play.arena.run_match`."""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Final, TypeVar

import click

from kosolve.batch.cluster import DEFAULT_CHUNK, ClusterError
from kosolve.batch.results import ResultsError, WriteError, read_question, read_results
from kosolve.cli.errors import InputError
from kosolve.cli.options import jobs_option, json_option, quiet_option, rules_options, tt_mb_option
from kosolve.cli.running import progress_bar
from kosolve.dealing import MAX_SEED
from kosolve.model.announcements import ANNOUNCEMENTS
from kosolve.model.dealt import Dealt
from kosolve.model.game import Rules
from kosolve.model.jsonfile import MAX_FILE_BYTES, FileError
from kosolve.model.quoting import source_name
from kosolve.model.reprs import counted
from kosolve.play.arena import (
    POINT_SOURCES,
    SIDES,
    Match,
    MatchSummary,
    dealer_deal,
    file_deals,
    run_match,
    summarise,
)
from kosolve.play.bots import make_bot
from kosolve.play.player import BotSpecError
from kosolve.play.protocol import DEFAULT_MOVE_TIME
from kosolve.play.sprt import DEFAULT_ALPHA, DEFAULT_BETA, Hypotheses, SprtError, SprtState
from kosolve.review.records import ARENA_KIND


def match_deals(given: str, seed: int, rules: Rules) -> tuple[str, list[Dealt]]:
    """The match's deals: N from the realistic dealer, or the deals as dealt of a file."""
    # ASCII digits only: "²" is a digit to str.isdigit, not to int.
    if given.isascii() and given.isdigit():
        count = int(given)
        return "dealer", [dealer_deal(seed, number) for number in range(1, count + 1)]
    shown = source_name(given)
    lines: list[bytes] = []
    try:
        with Path(given).open("rb") as file:
            # A line at a time, each no longer than a deal file may be: a
            # file without line breaks (or /dev/zero) is refused, not held.
            while line := file.readline(MAX_FILE_BYTES + 1):
                if len(line) > MAX_FILE_BYTES:
                    raise InputError(
                        f"--deals: {shown}: line {len(lines) + 1}:"
                        f" more than {MAX_FILE_BYTES >> 20} MB, too large for a deal"
                    )
                lines.append(line)
    except OSError as error:
        raise InputError(f"--deals: {shown}: {error.strerror}") from None
    try:
        text = b"".join(lines).decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"--deals: {shown}: not UTF-8 text (byte {error.start}: {error.reason})") from None
    try:
        return given, file_deals(text, given, rules)
    except (FileError, ValueError) as error:
        raise InputError(f"--deals: {error}") from None


def match_seed(given: int | None, results: str, drawn: int | None = None) -> int:
    """The match's seed: the one given; else a resumed match's, from its
    results file's header; else one drawn at random.  The deals follow from
    the seed, so only a seed nobody knows keeps them from a protocol bot.
    ``drawn``, when given, stands for the one drawn (a ladder draws one
    for all its new matches)."""
    if given is not None:
        return given
    question = read_question(results) or {}
    recorded = question.get("seed")
    if question.get("kind") == ARENA_KIND and isinstance(recorded, int):
        return recorded
    return secrets.randbelow(MAX_SEED) if drawn is None else drawn


REASONS_SHOWN: Final = 3
"""The most forfeit reasons a bot's line names, the commonest first."""
REASON_LENGTH: Final = 60
"""The most characters of a forfeit reason the summary shows (the results
file has it whole)."""


def _short(reason: str) -> str:
    return reason if len(reason) <= REASON_LENGTH else reason[: REASON_LENGTH - 3].rstrip() + "..."


def reasons_text(reasons: Mapping[str, int]) -> str:
    """A bot's forfeit reasons (commonest first, as the summary keeps
    them), each with how many games it forfeited for it: ``3 games: the
    bot exited; 1 game: not JSON``; a lone reason alone."""
    common = list(reasons.items())
    if len(common) == 1:
        return _short(common[0][0])
    shown = [f"{counted(count, 'game')}: {_short(reason)}" for reason, count in common[:REASONS_SHOWN]]
    left = len(common) - REASONS_SHOWN
    return "; ".join(shown + ([counted(left, "other reason")] if left > 0 else []))


def render_summary(summary: MatchSummary) -> str:
    """The match's result as a player reads it; each bot's forfeit reasons
    under its line."""
    lines = [f"{counted(summary.deals, 'deal')}, each played twice with the seats swapped"]
    for name, bot in (("A", summary.a), ("B", summary.b)):
        dd = "-" if bot.dd_accuracy is None else f"{100 * bot.dd_accuracy:.1f}%"
        knew = "" if bot.knew_accuracy is None else f", by what it knew {100 * bot.knew_accuracy:.1f}%"
        lines.append(
            f"  {name} {bot.spec}: {bot.mean_points:+.2f} game points a deal, {counted(bot.wins, 'deal')} won,"
            f" {counted(bot.forfeits, 'forfeit')}; cards best double dummy {dd}{knew}"
        )
        if bot.forfeits:
            lines.append(f"    forfeited {counted(bot.forfeits, 'game')}: {reasons_text(bot.forfeit_reasons)}")
    interval = "" if summary.ci95 is None else f" (95% interval {summary.ci95[0]:+.2f} to {summary.ci95[1]:+.2f})"
    lines.append(
        f"  A - B: {summary.mean_diff:+.2f} game points a deal{interval}; {counted(summary.draws, 'deal')} drawn"
    )
    if summary.sprt is not None:
        lines.append(render_sprt(summary.sprt))
    return "\n".join(lines + _bonus_table(summary))


def render_sprt(state: SprtState) -> str:
    """Where the sequential test stands, one line."""
    asked = state.hypotheses
    if state.accepted is None:
        verdict = f"no decision after {counted(state.deals, 'deal')}"
    else:
        lead = f"{asked.d0:+g} or less" if state.accepted == "H0" else f"{asked.d1:+g} or more"
        verdict = f"{state.accepted} accepted after {counted(state.deals, 'deal')} (A leads by {lead})"
    return (
        f"  SPRT H0 A - B <= {asked.d0:+g} against H1 >= {asked.d1:+g}"
        f" (alpha {asked.alpha:g}, beta {asked.beta:g}): {verdict};"
        f" LLR {state.llr:+.2f}, bounds {asked.lower:+.2f} and {asked.upper:+.2f}"
    )


def hypotheses_of(given: str | None, alpha: float | None, beta: float | None) -> Hypotheses | None:
    """The sequential test of ``--sprt D0,D1 --alpha A --beta B``; None
    without ``--sprt``."""
    if given is None:
        if alpha is not None or beta is not None:
            raise InputError(f"{'--alpha' if alpha is not None else '--beta'} goes with --sprt D0,D1")
        return None
    parts = given.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        d0, d1 = (float(part) for part in parts)
    except ValueError:
        raise InputError(f"--sprt: {given!r} is not two numbers D0,D1 (game points a deal, 0,10 say)") from None
    try:
        return Hypotheses(d0, d1, DEFAULT_ALPHA if alpha is None else alpha, DEFAULT_BETA if beta is None else beta)
    except SprtError as error:
        raise InputError(f"--sprt: {error}") from None


def _signed(points: int) -> str:
    return f"{points:+d}" if points else "0"


def _bonus_table(summary: MatchSummary) -> list[str]:
    """Each bot's announcements by kind (those either bot announced), its
    Kontras (when either said one) and its game points by source, a column
    a bot."""
    bots = (summary.a, summary.b)
    rows: list[tuple[str, str, str]] = [("announced/made/failed", "A", "B")]
    for kind in ANNOUNCEMENTS:
        counts = [bot.announcements[kind] for bot in bots]
        if any(count.announced for count in counts):
            a, b = (f"{count.announced}/{count.made}/{count.failed}" for count in counts)
            rows.append((f"  {kind.replace('_', ' ')}", a, b))
    if len(rows) == 1:
        rows.append(("  none", "", ""))
    if any(bot.kontras for bot in bots):
        a, b = (f"{bot.kontras}/{bot.kontras_paid}" for bot in bots)
        rows.append(("Kontras said/paid off", a, b))
    rows.append(("game points over the match", "", ""))
    labels = {
        "game": "game item (contract, Valat)",
        "announced": "announced bonuses",
        "silent": "silent bonuses",
        "held": "held bonuses",
        "forfeit": "forfeits",
    }
    for source in POINT_SOURCES:
        if source != "forfeit" or any(bot.points[source] for bot in bots):
            rows.append((f"  {labels[source]}", _signed(summary.a.points[source]), _signed(summary.b.points[source])))
    rows.append(("  total", _signed(summary.a.total), _signed(summary.b.total)))
    width = max(len(row[0]) for row in rows)
    cell = max(len(text) for row in rows for text in row[1:])
    return [f"  {label:<{width}}  {a:>{cell}}  {b:>{cell}}".rstrip() for label, a, b in rows]


F = TypeVar("F", bound=Callable[..., object])


def playing_options(function: F) -> F:
    """``--move-time``, ``--dask`` and ``--chunk``: how a match's deals are
    played, as ``arena`` and ``ladder`` take them."""
    function = click.option(
        "--chunk",
        type=click.IntRange(min=1),
        default=DEFAULT_CHUNK,
        show_default=True,
        help="With --dask: deals a task.",
    )(function)
    function = click.option(
        "--dask",
        "address",
        metavar="tcp://HOST:8786",
        help='Play on the Dask cluster whose scheduler is there (pip install "kosolve[dask]").',
    )(function)
    return click.option(
        "--move-time",
        type=click.FloatRange(0, min_open=True),
        default=DEFAULT_MOVE_TIME,
        show_default=True,
        metavar="S",
        help="Seconds a protocol bot (exec:) has for a decision, and to read each line written to it; slower forfeits.",
    )(function)


@click.command("arena")
@click.argument("a", metavar="A", required=False)
@click.argument("b", metavar="B", required=False)
@click.option(
    "--deals",
    "given",
    default="100",
    show_default=True,
    metavar="N|FILE",
    help="N deals from the realistic dealer, or a file of deals as dealt (one a line; their bids are not used).",
)
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    help="The seed of the deals and of the bots.  Without it a new match draws one at random, which no bot can"
    " guess (a bot that knew the seed could deal the deals itself), and a resumed match takes its own from"
    " RESULTS.jsonl's header.",
)
@click.option(
    "-o", "--output", "results", required=True, metavar="RESULTS.jsonl", help="Where each deal's record goes."
)
@click.option(
    "--review",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    metavar="N",
    help="Also judge every card by what its player knew, up to N worlds a card (the expectation accuracy).",
)
@playing_options
@click.option(
    "--sprt",
    "sprt",
    metavar="D0,D1",
    help="Stop the match as soon as a sequential test decides between H0, A leads by D0 game points a deal or"
    " less, and H1, by D1 or more (--deals is then the most it plays).",
)
@click.option(
    "--alpha",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    metavar="P",
    help=f"With --sprt: the chance of accepting H1 when A leads by D0  [default: {DEFAULT_ALPHA}]",
)
@click.option(
    "--beta",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    metavar="P",
    help=f"With --sprt: the chance of accepting H0 when A leads by D1  [default: {DEFAULT_BETA}]",
)
@click.option(
    "--summary-only",
    is_flag=True,
    help="Play nothing: print the summary of RESULTS.jsonl, of the match its header records (give no A and B).",
)
@jobs_option
@json_option
@tt_mb_option
@quiet_option("No progress bar.")
@rules_options
def arena_command(
    a: str | None,
    b: str | None,
    given: str,
    seed: int | None,
    results: str,
    move_time: float,
    review: int,
    address: str | None,
    chunk: int,
    sprt: str | None,
    alpha: float | None,
    beta: float | None,
    summary_only: bool,
    jobs: int | None,
    as_json: bool,
    tt_mb: float,
    quiet: bool,
    rules: Rules,
) -> None:
    """A duplicate match between bots A and B: every deal is played twice
    with the seats swapped, each bot deciding everything from its own seat
    (the auction, the talon and the lay-away, the announcements, every
    card).  A bot is random, heuristic, pimc (options: pimc:samples=10,auction=6, the defaults),
    expert (pimc with its worlds weighed by the other's play and its last
    tricks searched without strategy fusion: expert:infer=0.5,endgame=4,
    docs/bots.md), dd (sees every card: the ceiling), or exec:COMMAND ARGS, a program that
    speaks the line protocol (docs/protocol.md).

    One record a deal goes into RESULTS.jsonl as it finishes; the same
    command again resumes the match and repeats nothing.  At the end the
    summary: each bot's mean game points a deal, A's lead over B with its
    95% interval over the deals, the deals won, the forfeits (a bot that
    breaks the protocol loses that game by 24 game points), the share
    of each bot's cards that were best double dummy, and a table of each
    bot's announcements by kind (announced, made, failed), its Kontras
    (said, paid off) and its game points from the game item, the
    announced, silent and held bonuses and the forfeits; under a bot's
    line, why it forfeited.  --summary-only -o RESULTS.jsonl prints the
    summary of a results file and plays nothing.

    A bot that forfeited every game it played (it could not start, or
    broke at once) is named on stderr after the summary, and the exit
    status is 1: the match says nothing of it.  A bot that forfeits only
    some games is no error.

    --sprt D0,D1 runs a sequential probability ratio test on the deals in
    their order and stops the match as soon as it accepts H0 (A leads by
    D0 game points a deal or less) or H1 (by D1 or more), with the error
    rates --alpha and --beta; the summary says which, after how many
    deals, the LLR and its bounds.

    \b
    Examples:
      kosolve arena pimc heuristic --deals 200 -o match.jsonl --jobs 2
      kosolve arena "exec:python3 examples/bots/first.py" random --deals 20 -o m.jsonl
      kosolve arena pimc:samples=50 dd --deals games.jsonl -o m.jsonl --json
      kosolve arena pimc heuristic --deals 1000 -o m.jsonl --dask tcp://scheduler:8786
      kosolve arena random heuristic --deals 50 -o m.jsonl --defender-announcements --kontra
      kosolve arena pimc heuristic --deals 2000 --sprt 0,10 -o m.jsonl
      kosolve arena --summary-only -o m.jsonl
    """
    hypotheses = hypotheses_of(sprt, alpha, beta)
    if summary_only:
        if a is not None:
            raise click.UsageError("--summary-only reads the results file alone: give no bots")
        _finish(results, _recorded_match(results), as_json, hypotheses)
        return
    if a is None or b is None:
        raise click.UsageError(f"Missing argument '{'A' if a is None else 'B'}'")
    if address is not None and jobs is not None:
        raise click.UsageError("--jobs runs on this machine, --dask on a cluster: give one")
    try:
        for spec in (a, b):
            make_bot(spec, rules, move_time=move_time).close()
    except BotSpecError as error:
        raise InputError(str(error)) from None
    seed = match_seed(seed, results)
    source, deals = match_deals(given, seed, rules)
    match = Match(a, b, seed, source, rules, move_time, review)
    try:
        with progress_bar("deals", quiet) as progress:
            run_match(
                match,
                deals,
                results,
                jobs=jobs,
                dask=address,
                chunk=chunk,
                tt_mb=tt_mb,
                progress=progress,
                sprt=hypotheses,
            )
    except ResultsError as error:
        raise InputError(str(error)) from None
    except (ClusterError, WriteError) as error:
        raise click.ClickException(str(error)) from None
    _finish(results, match, as_json, hypotheses)


def _recorded_match(results: str) -> Match:
    """The match the header of the results file ``results`` records."""
    shown = source_name(results)
    if not Path(results).is_file():
        raise InputError(f"{shown}: no such results file")
    question = read_question(results)
    try:
        if question is None:
            raise ResultsError("not a results file")
        return Match.from_json(question)
    except ResultsError as error:
        raise InputError(f"{shown}: {error}") from None


def _finish(results: str, match: Match, as_json: bool, sprt: Hypotheses | None = None) -> None:
    """Print the summary of the whole results file, with where the
    sequential test of ``sprt`` stands on it when asked; exit 1 when a
    bot forfeited every game it played."""
    try:
        records = read_results(results)
        summary = summarise(records, match, sprt)
    except ResultsError as error:
        raise InputError(str(error)) from None
    except (KeyError, IndexError, TypeError, ValueError) as error:
        # Only a file written by hand gets here: kosolve writes whole records.
        raise InputError(
            f"{source_name(results)}: a record of no arena match ({type(error).__name__}: {error})"
        ) from None
    if as_json:
        click.echo(json.dumps({"results": results, **summary.to_json()}))
    else:
        click.echo(render_summary(summary))
    broken = [
        f"bot {side.upper()} ({bot.spec}) forfeited all {counted(bot.forfeits, 'game')} it played"
        f" ({reasons_text(bot.forfeit_reasons)})"
        for side, bot in zip(SIDES, (summary.a, summary.b), strict=True)
        if summary.never_played(side)
    ]
    if broken:
        # It could not start, or broke at once: a summary with no error would pass for a result.
        raise click.ClickException("; ".join(broken) + ", so the match says nothing of it")
