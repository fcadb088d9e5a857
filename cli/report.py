"""``kosolve report``: one self-contained HTML file of a deal file's play,
every value precomputed through the library's orchestration
(:func:`kosolve.web.report.report_data`); it needs no web framework."""

from __future__ import annotations

import click

from kosolve.analysis.report import Analyser
from kosolve.cli.loading import STDIN, load_viewed
from kosolve.cli.options import (
    decisions_options,
    jobs_option,
    quiet_option,
    rules_options,
    samples_options,
    threads_option,
    tt_mb_option,
)
from kosolve.cli.running import progress_bar, tables, write_atomically
from kosolve.model.game import Rules
from kosolve.web.report import render_html, report_data


@click.command("report")
@click.argument("file", metavar="DEAL.json", type=click.Path(allow_dash=True, readable=False))
@click.option(
    "-o",
    "--output",
    metavar="FILE.html",
    default=STDIN,
    show_default=True,
    type=click.Path(dir_okay=False, allow_dash=True, writable=True),
    help="Where to write the report (- for the standard output).",
)
@samples_options("The review by what each player knew")
@decisions_options("the report")
@jobs_option
@tt_mb_option
@threads_option
@quiet_option("No progress bar.")
@rules_options
def report_command(
    file: str,
    output: str,
    samples: int,
    seed: int,
    before_play: bool,
    decision_samples: int,
    jobs: int | None,
    tt_mb: float,
    threads: int,
    quiet: bool,
    rules: Rules,
) -> None:
    """Write one HTML file with the web view of DEAL.json's play, to open in
    any browser from the file system, offline, and to send to a partner:
    the hands and the table after every card of the play, every legal
    card's value and what it costs, the timeline of the play with the
    mistakes and when each announcement was lost, every card judged by
    what its player knew beside double dummy (kosolve review), and for a
    deal as dealt its decisions before the play judged the same way, what each
    player can still force, the settlement, and for a deal as dealt the
    exchange table and par.  Step through it with the buttons or the arrow keys; to try
    other cards, serve the file instead (kosolve serve DEAL.json).

    \b
    Examples:
      kosolve report examples/played.json -o played.html
      kosolve report examples/dealt.json -o dealt.html
    """
    name, _, deal, dealt = load_viewed(file, rules)
    if output != STDIN and file != STDIN and click.format_filename(output) == click.format_filename(file):
        raise click.UsageError(f"--output {output} would replace the deal file it reads")
    with tables(tt_mb):
        analyser = Analyser(tt_mb, threads)
    with progress_bar("report", quiet) as progress:
        data = report_data(
            analyser,
            name,
            deal,
            dealt,
            rules,
            progress,
            samples=samples,
            seed=seed,
            jobs=jobs,
            before_play=before_play,
            decision_samples=decision_samples,
        )
    picture = deal.svg() if deal is not None else ""
    page = render_html(data, picture)
    if output == STDIN:
        click.echo(page, nl=False)
    else:
        write_atomically(output, page)
