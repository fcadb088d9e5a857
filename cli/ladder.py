"""``kosolve ladder``: the round robin of duplicate matches between
several bots and their rating list, through
:func:`kosolve.play.ladder.play_ladder` and :func:`kosolve.play.ladder.rate`."""

from __future__ import annotations

import json
import secrets
from pathlib import Path

import click

from kosolve.batch.cluster import ClusterError
from kosolve.batch.results import ResultsError, WriteError
from kosolve.cli.arena import match_deals, match_seed, playing_options
from kosolve.cli.errors import InputError
from kosolve.cli.loading import STDIN
from kosolve.cli.options import jobs_option, json_option, quiet_option, rules_options, tt_mb_option
from kosolve.cli.running import check_target, progress_bar, write_atomically
from kosolve.dealing import MAX_SEED
from kosolve.model.dealt import Dealt
from kosolve.model.game import Rules
from kosolve.model.quoting import source_name
from kosolve.model.reprs import counted
from kosolve.play.arena import Match
from kosolve.play.bots import make_bot
from kosolve.play.ladder import Rung, pair_path, play_ladder, rate, round_robin
from kosolve.play.player import BotSpecError
from kosolve.play.rating import RatingError, Ratings, ratings_svg


def render_ratings(ratings: Ratings) -> str:
    """The rating list as a player reads it: a line a bot, the best first,
    then each match's result."""
    rows = [("", "bot", "rating", "95%", "deals")]
    for place, rating in enumerate(ratings.ratings, start=1):
        half = rating.ci95[1] - rating.rating
        rows.append((f"{place}.", rating.bot, f"{rating.rating:+.2f}", f"± {half:.2f}", str(rating.deals)))
    widths = [max(len(row[column]) for row in rows) for column in range(5)]
    lines = [
        f"{counted(len(ratings.ratings), 'bot')},"
        f" {counted(len(ratings.matches), 'duplicate match', 'duplicate matches')}"
        "; ratings in game points a deal, their mean 0"
    ]
    for rank, bot, value, interval, deals in rows:
        lines.append(
            f"  {rank:>{widths[0]}} {bot:<{widths[1]}}  {value:>{widths[2]}} {interval:<{widths[3]}}"
            f"  {deals:>{widths[4]}}".rstrip()
        )
    lines.append("  matches, A - B in game points a deal")
    for match in ratings.matches:
        low, high = match.ci95
        lines.append(
            f"    {match.a} - {match.b}: {match.mean:+.2f} (95% interval {low:+.2f} to {high:+.2f}),"
            f" {counted(match.deals, 'deal')}"
        )
    return "\n".join(lines)


def _rungs(
    bots: tuple[str, ...], folder: str, given: str, seed: int | None, rules: Rules, move_time: float
) -> list[Rung]:
    """The ladder's matches: each pair's match, with the seed given, or
    the one its results file records, or one drawn for every new match of
    this ladder (the same deals for all of them)."""
    drawn = secrets.randbelow(MAX_SEED)
    dealt: dict[int, tuple[str, list[Dealt]]] = {}
    rungs = []
    for a, b in round_robin(bots):
        results = str(pair_path(folder, a, b))
        pair_seed = match_seed(seed, results, drawn)
        if pair_seed not in dealt:
            dealt[pair_seed] = match_deals(given, pair_seed, rules)
        source, deals = dealt[pair_seed]
        rungs.append(Rung(Match(a, b, pair_seed, source, rules, move_time), deals, results))
    return rungs


@click.command("ladder")
@click.argument("bots", metavar="BOT...", nargs=-1, required=True)
@click.option(
    "--deals",
    "given",
    default="100",
    show_default=True,
    metavar="N|FILE",
    help="N deals a match from the realistic dealer, or a file of deals as dealt (one a line; their bids are not"
    " used).",
)
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    help="The seed of the deals and of the bots of every match.  Without it the new matches draw one at random,"
    " the same for all, and a resumed match takes its own from its results file's header.",
)
@click.option(
    "-o",
    "--output",
    "folder",
    required=True,
    metavar="DIR",
    help="The folder of the results files, one a match (made when missing).",
)
@playing_options
@click.option("--plot", metavar="FILE.svg", help="Also draw the ratings with their 95% intervals into FILE.svg.")
@jobs_option
@json_option
@tt_mb_option
@quiet_option("No progress bar.")
@rules_options
def ladder_command(
    bots: tuple[str, ...],
    given: str,
    seed: int | None,
    folder: str,
    move_time: float,
    address: str | None,
    chunk: int,
    plot: str | None,
    jobs: int | None,
    as_json: bool,
    tt_mb: float,
    quiet: bool,
    rules: Rules,
) -> None:
    """A ladder: every pair of BOTs plays a duplicate match (kosolve arena)
    of the same deals, and each bot gets a rating in game points a deal,
    fitted to all the matches at once, such that bot A is expected to lead
    bot B by A's rating less B's; the ratings' mean is 0.  A bot is given
    as to kosolve arena: random, heuristic, pimc (options:
    pimc:samples=10,auction=6), expert (pimc with inference and the
    endgame search: expert:infer=0.5,endgame=4), dd, or exec:COMMAND ARGS.

    Each match goes into a results file of its own in DIR, named after
    the pair; the same command again resumes every match and repeats
    nothing, and a bot added plays only its own matches.  At the end the
    rating list: each bot's rank, rating with its 95% interval, and the
    deals of its matches; then each match's result.

    \b
    Examples:
      kosolve ladder random heuristic pimc --deals 200 -o ladder --jobs 2
      kosolve ladder random heuristic --deals 20 -o ladder --json
      kosolve ladder heuristic pimc dd --deals 100 -o ladder --plot ratings.svg
    """
    if len(bots) < 2:
        raise InputError("a ladder needs at least two bots")
    twice = next((bot for index, bot in enumerate(bots) if bot in bots[:index]), None)
    if twice is not None:
        raise InputError(f"{twice!r} is given twice: give each bot once")
    if address is not None and jobs is not None:
        raise click.UsageError("--jobs runs on this machine, --dask on a cluster: give one")
    try:
        for spec in bots:
            make_bot(spec, rules, move_time=move_time).close()
    except BotSpecError as error:
        raise InputError(str(error)) from None
    if plot is not None:
        check_target("--plot", plot, STDIN)
    try:
        Path(folder).mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InputError(f"-o: {source_name(folder)}: {error.strerror}") from None
    rungs = _rungs(bots, folder, given, seed, rules, move_time)
    try:
        with progress_bar("deals", quiet) as progress:
            play_ladder(rungs, jobs=jobs, dask=address, chunk=chunk, tt_mb=tt_mb, progress=progress)
        ratings = rate(rungs)
    except (ResultsError, RatingError) as error:
        raise InputError(str(error)) from None
    except (ClusterError, WriteError) as error:
        raise click.ClickException(str(error)) from None
    if plot is not None:
        write_atomically(plot, ratings_svg(ratings))
    if as_json:
        data = ratings.to_json()
        matches = data["matches"]
        assert isinstance(matches, list)
        for match, rung in zip(matches, rungs, strict=True):
            match["results"] = rung.results
        click.echo(json.dumps({"folder": folder, **data}))
    else:
        click.echo(render_ratings(ratings))
