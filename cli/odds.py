"""``kosolve odds``: the odds from one seat, the unseen cards dealt in every
way the seat view allows and each world solved exactly, through
:func:`kosolve.sampling.odds.odds`."""

from __future__ import annotations

import json
import sys

import click

from kosolve.cli.loading import check_view, load_seat_view
from kosolve.cli.options import jobs_option, json_option, quiet_option, rules_options, samples_options, tt_mb_option
from kosolve.cli.running import progress_bar
from kosolve.model.game import Rules
from kosolve.render.odds import render_odds
from kosolve.render.text import style_for
from kosolve.sampling.inference import DEFAULT_DEPTH, Inference
from kosolve.sampling.odds import odds


@click.command("odds")
@click.argument("file", metavar="VIEW.json", type=click.Path(allow_dash=True, readable=False))
@samples_options("The view")
@jobs_option
@click.option(
    "--feasibility/--no-feasibility",
    default=True,
    show_default=True,
    help="Say how often each player can still force each bird and the Valat (after the play; the dearer part).",
)
@click.option(
    "--infer",
    type=click.FloatRange(0, 1, min_open=True),
    default=None,
    metavar="W",
    help=f"Weigh the worlds by the other's play (docs/inference.md): a world counts W times less for each of his"
    f" last {DEFAULT_DEPTH} cards that lost value double dummy in it (1: every world alike; before the auction a view"
    " holds no calls, so nothing changes).",
)
@json_option
@tt_mb_option
@quiet_option("No progress bar.")
@rules_options
def odds_command(
    file: str,
    samples: int,
    seed: int,
    jobs: int | None,
    feasibility: bool,
    infer: float | None,
    as_json: bool,
    tt_mb: float,
    quiet: bool,
    rules: Rules,
) -> None:
    """What one player can expect from what he knows (a seat view,
    docs/views.md): the cards he cannot see are dealt at random in every
    way consistent with his view (each consistent world equally likely),
    each world is solved exactly, double dummy, and the results are
    averaged (perfect-information Monte Carlo).

    After the play: each legal card of the viewer, when he is to move, with
    the declarer's mean final points after it, its 95% interval and the
    declarer's chance to win; the declarer's chance to win, and how often
    each bird and the Valat can still be forced by each player.  Before the
    auction (a view without a contract): for the viewer as declarer, each
    contract's chance to win and mean game points, each world with its
    best talon choice and lay-away.

    With --infer W the worlds after the play are weighted by how likely the
    other's last cards are in each (docs/inference.md), and the figures
    are weighted means.

    \b
    Examples:
      kosolve odds examples/views/trick4.json
      kosolve odds --samples 1000 --seed 7 --jobs 2 view.json
      kosolve odds --no-feasibility view.json   # the cards only, faster
      kosolve odds --json examples/views/auction.json
      kosolve odds --infer 0.5 view.json   # weigh the worlds by his play
      kosolve view examples/played.json --seat dealer --at 4 | kosolve odds -
    """
    name, view = load_seat_view(file)
    check_view(name, view, rules)
    with progress_bar("worlds", quiet) as progress:
        inference = None if infer is None else Inference(card_weight=infer)
        result = odds(
            view,
            samples,
            seed,
            jobs,
            rules=rules,
            tt_mb=tt_mb,
            feasibility=feasibility,
            progress=progress,
            inference=inference,
        )
    if as_json:
        click.echo(json.dumps({"file": name, **result.to_json()}))
    else:
        click.echo(render_odds(name, result, style_for(sys.stdout)))
