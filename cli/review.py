"""``kosolve review``: every card of a played hand judged by what its
player knew (the worlds of his seat view) and double dummy, through
:func:`kosolve.review.judging.review`."""

from __future__ import annotations

import json
import sys
from dataclasses import fields
from typing import Final

import click

from kosolve.batch.results import ResultsError, read_question, read_results
from kosolve.cli.errors import InputError, shown, switch_of
from kosolve.cli.loading import STDIN, load_viewed
from kosolve.cli.options import (
    decisions_options,
    jobs_option,
    json_option,
    quiet_option,
    rules_options,
    samples_options,
    tt_mb_option,
)
from kosolve.cli.running import progress_bar
from kosolve.model.announcements import AnnouncementError
from kosolve.model.deal import Deal
from kosolve.model.dealt_file import DealtFile
from kosolve.model.game import Rules
from kosolve.model.quoting import source_name
from kosolve.model.view import SeatViewError
from kosolve.render.review import render_review
from kosolve.render.text import style_for
from kosolve.review.judging import ReviewError, review
from kosolve.review.records import RecordChoiceError, RecordError, arena_game
from kosolve.sampling.worlds import NoWorldError

SWITCHES: Final = {"start": "--from", "decision_samples": "--decision-samples"}
"""The fields of :func:`~kosolve.review.judging.review` that this command
spells otherwise: ``start`` is ``--from``, ``from`` being Python's keyword."""
RECORD_OPTIONS: Final = ("deal", "game")
"""The options that choose a game of an arena results file."""


def _arena_results(file: str) -> bool:
    """Whether ``file`` is a results file (its first line a header): an
    arena's, or another that the review refuses by name."""
    return file != STDIN and read_question(file) is not None


def _given(name: str) -> bool:
    """Whether the option ``name`` was given on the command line."""
    source = click.get_current_context().get_parameter_source(name)
    return source not in (None, click.core.ParameterSource.DEFAULT)


def _load(
    file: str, rules: Rules, deal_number: int | None, game_number: int | None
) -> tuple[str, Deal, DealtFile | None, Rules, dict[str, int]]:
    """The name shown, the play position, the deal as dealt (None for a
    play file), the rules of what ``file`` holds and which game of the
    file it is: a deal file (no ``deal`` and ``game``), or the game
    ``--deal``/``--game`` choose of an arena results file, under the rules
    of its match."""
    if not _arena_results(file):
        for switch, number in zip(RECORD_OPTIONS, (deal_number, game_number), strict=True):
            if number is not None:
                raise InputError(f"--{switch}: only for an arena results file (kosolve arena -o), not a deal file")
        name, _, deal, dealt = load_viewed(file, rules)
        if deal is None:
            message = "the deal as dealt names no contract, declarer and exchange to review"
            raise InputError(f"{source_name(name)}: {message}")
        return name, deal, dealt, rules, {}
    try:
        dealt, played, number = arena_game(read_question(file), read_results(file), file, deal_number, game_number)
    except (ResultsError, RecordError) as error:
        raise InputError(str(error)) from None
    except RecordChoiceError as error:
        raise InputError(f"{source_name(file)}: {error.shown(switch_of)}") from None
    for option in fields(Rules):
        if _given(option.name) and getattr(rules, option.name) != getattr(played, option.name):
            recorded = json.dumps(getattr(played, option.name))
            raise InputError(
                f"{switch_of(option.name)}: the match was played with {option.name} {recorded} (its header's rules"
                " are the review's): leave the rule options out"
            )
    assert game_number is not None, "arena_game asks for it"
    return file, dealt.play_deal(), dealt, played, {"deal": number, "game": game_number}


def _switch(option: str) -> str:
    """The switch of a review field, as an error names it."""
    return SWITCHES.get(option) or switch_of(option)


@click.command("review")
@click.argument("file", metavar="DEAL.json", type=click.Path(allow_dash=True, readable=False))
@click.option(
    "--from",
    "start",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    metavar="N",
    help="Judge the cards from the play's card N on (0-based).",
)
@samples_options("Each card's view")
@click.option(
    "--score",
    is_flag=True,
    help="Compare the cards by the declarer's net game points with score-optimal play, not by card points (slower).",
)
@click.option(
    "--infer",
    type=click.FloatRange(0, 1, min_open=True),
    default=1.0,
    show_default=True,
    metavar="W",
    help="Weigh the worlds by the other's play: a world counts W times less for each of his last 4 cards that"
    " lost value double dummy in it (1: every world alike).",
)
@decisions_options("a review")
@click.option(
    "--deal",
    "deal_number",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Of an arena results file: deal N of the match (its number, from 1; the file's only deal by default).",
)
@click.option(
    "--game",
    "game_number",
    type=click.IntRange(min=1),
    default=None,
    metavar="1|2",
    help="Of an arena results file: the deal's game 1 (bot A the forehand, B the dealer) or 2 (the seats swapped).",
)
@jobs_option
@json_option
@tt_mb_option
@quiet_option("No progress bar.")
@rules_options
def review_command(
    file: str,
    start: int,
    samples: int,
    seed: int,
    score: bool,
    infer: float,
    before_play: bool,
    decision_samples: int,
    deal_number: int | None,
    game_number: int | None,
    jobs: int | None,
    as_json: bool,
    tt_mb: float,
    quiet: bool,
    rules: Rules,
) -> None:
    """Judge every card of a played hand twice: by what its player knew and
    double dummy.  Before each card, the worlds its player could not tell
    apart (his seat view: his cards and pile, what he saw of the other's,
    the announcements, the play so far and the voids it showed) are solved
    exactly, every one when no more than --samples fit, else --samples
    drawn at random; his legal cards are compared by their mean over those
    worlds, and beside it in the one world that was dealt.

    Each card is best (best by both), a mistake (it lost by what he knew
    and double dummy), unlucky (best by what he knew, lost double dummy)
    or lucky (lost by what he knew, best double dummy); a card that was
    the only legal one is forced.  Then the costliest mistakes and each
    player's summary.  DEAL.json is a whole game with its piles: a play
    file, or a deal as dealt with its contract, exchange and play (then
    the defender saw the talon cards the declarer took), or a game of an
    arena results file (kosolve arena -o RESULTS.jsonl): --deal N --game 1
    is deal N's game with bot A the forehand, --game 2 the seats swapped,
    reviewed under the rules the match was played by (its header's).

    For a deal as dealt every decision before the play is judged first, in
    game points: the declarer's choice of contract (against passing and
    every other contract; the file has no calls), each announcement round
    (what was announced against nothing, one fewer or one more), each
    Kontra (with --kontra), the talon choice and the lay-away.  Each option
    is valued in the worlds the player could not tell apart then (at most
    --decision-samples) by the rest of the game played double dummy, and in
    the world that was dealt; see docs/review.md.

    \b
    Examples:
      kosolve review examples/played-out.json
      kosolve review --from 20 --samples 500 --jobs 2 game.json
      kosolve review --infer 0.5 examples/played-out.json
      kosolve review --decision-samples 20 dealt-game.json
      kosolve review --no-decisions dealt-game.json
      kosolve review --deal 3 --game 2 match.jsonl
    """
    name, deal, dealt, rules, record = _load(file, rules, deal_number, game_number)
    try:
        with progress_bar("worlds", quiet) as progress:
            result = review(
                dealt or deal,
                samples=samples,
                seed=seed,
                jobs=jobs,
                start=start,
                score=score,
                infer=infer,
                rules=rules,
                tt_mb=tt_mb,
                progress=progress,
                before_play=before_play,
                decision_samples=decision_samples,
            )
    except ReviewError as error:
        raise InputError(f"{source_name(name)}: {error.shown(_switch)}") from None
    except (SeatViewError, NoWorldError, AnnouncementError) as error:
        raise InputError(f"{source_name(name)}: {shown(error)}") from None
    if as_json:
        click.echo(json.dumps({"file": name, **record, **result.to_json()}))
    else:
        label = f"{name} (deal {record['deal']}, game {record['game']})" if record else name
        click.echo(render_review(label, result, style_for(sys.stdout)))
