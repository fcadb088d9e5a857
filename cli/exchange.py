"""``kosolve exchange``: the talon-exchange and contract table of a deal as
dealt, its par, and what the file's own bid and exchange cost, through the
library's orchestration (:meth:`kosolve.analysis.report.Analyser.analyse_exchange`)."""

from __future__ import annotations

import json
import sys

import click

from kosolve.analysis.report import Analyser
from kosolve.cli.loading import load_dealt
from kosolve.cli.options import json_option, quiet_option, rules_options, threads_option, tt_mb_option
from kosolve.model.game import Rules
from kosolve.render.exchange import render_exchange_report
from kosolve.render.text import style_for


@click.command("exchange", short_help="The talon-exchange and contract table of a deal as dealt, and par.")
@click.argument("file", metavar="DEALT.json", type=click.Path(allow_dash=True, readable=False))
@json_option
@tt_mb_option
@threads_option
@quiet_option("No progress bar.")
@rules_options
def exchange_command(file: str, as_json: bool, tt_mb: float, threads: int, quiet: bool, rules: Rules) -> None:
    """The hand before play, double dummy, from a deal as dealt (the key
    "dealt": talon, hands, personal cards, discards; docs/deal-files.md).

    For each player as declarer, each contract and each talon choice: the
    best legal lay-away and the result with it (points, won or lost, game
    points), and how many of the legal lay-aways reach it; which
    announcements each declarer could make with some exchange; the par, the
    auction both would bid knowing all cards (docs/par.md); and, when the
    file names a contract, a declarer and an exchange, what that bid and
    that exchange cost against the best exchange of the contract and
    against par.  Every legal lay-away counts: the table is exact.

    \b
    Examples:
      kosolve exchange examples/dealt-open.json
      kosolve exchange --json examples/dealt.json
      kosolve exchange --discard tactical deal.json
    """
    name, dealt_file = load_dealt(file, rules)
    try:
        analyser = Analyser(tt_mb, threads)
    except (MemoryError, ValueError) as error:
        raise click.ClickException(f"cannot set up {tt_mb:g} MB of tables: {error or 'out of memory'}") from None
    declared = dealt_file.declared
    if quiet:
        report = analyser.analyse_exchange(dealt_file.dealt, rules, declared)
    else:
        with click.progressbar(length=1, label="exchange table", file=sys.stderr) as bar:

            def progress(done: int, total: int) -> None:
                bar.length = total
                bar.update(done - bar.pos)

            report = analyser.analyse_exchange(dealt_file.dealt, rules, declared, progress)
    if as_json:
        click.echo(json.dumps({"file": name, **report.to_json()}))
    else:
        click.echo(render_exchange_report(name, report, style_for(sys.stdout)))
