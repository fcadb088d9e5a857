"""``kosolve exchange``: the talon-exchange and contract table of a deal as
dealt, its par, and what the file's own bid and exchange cost, through the
library's orchestration (:meth:`kosolve.analysis.report.Analyser.analyse_exchange`);
``--row N --write-position FILE`` writes a row's position at trick 1 as a
deal file of its own."""

from __future__ import annotations

import json
import sys

import click

from kosolve.analysis.exchange import ROWS
from kosolve.analysis.report import Analyser, ExchangeReport
from kosolve.cli.loading import load_dealt
from kosolve.cli.options import json_option, quiet_option, rules_options, threads_option, tt_mb_option
from kosolve.cli.running import check_target, progress_bar, tables, write_atomically
from kosolve.model.deal import Deal, deal_to_json
from kosolve.model.game import Rules
from kosolve.render.exchange import render_exchange_report
from kosolve.render.text import style_for


def _row_deal(report: ExchangeReport, number: int, rules: Rules) -> Deal:
    """The position at trick 1 of the table's row ``number`` (from 1): its
    declarer, contract, talon choice and best lay-away."""
    row = report.table.rows[number - 1]
    return report.dealt.play_deal(row.contract, row.declarer, row.exchange, variant=rules.discard)


@click.command("exchange", short_help="The talon-exchange and contract table of a deal as dealt, and par.")
@click.argument("file", metavar="DEALT.json", type=click.Path(allow_dash=True, readable=False))
@json_option
@tt_mb_option
@threads_option
@quiet_option("No progress bar.")
@rules_options
@click.option(
    "--row",
    type=click.IntRange(min=1, max=ROWS),
    metavar="N",
    help=f"With --write-position: the row of the table to write, 1 to {ROWS}, numbered as the text shows them.",
)
@click.option(
    "--write-position",
    type=click.Path(dir_okay=False, writable=True),
    metavar="FILE",
    help="Also write the position at trick 1 of row N (its declarer, contract, talon cards taken and best lay-away)"
    " to FILE as a deal file of its own: the hands, the piles (discards, lay-away, the talon cards left) and what"
    " each seat laid away, for kosolve FILE or kosolve serve FILE to play. Whole or not at all.",
)
def exchange_command(
    file: str,
    as_json: bool,
    tt_mb: float,
    threads: int,
    quiet: bool,
    rules: Rules,
    row: int | None,
    write_position: str | None,
) -> None:
    """The hand before play, double dummy, from a deal as dealt (the key
    "dealt": talon, hands, personal cards, discards; docs/deal-files.md).

    Shows the cards as dealt (each player's hand, personal cards, discards
    and the 16 he holds, and the talon, top first); for each player as
    declarer, each contract and each talon choice: the best legal lay-away
    and the result with it (points, won or lost, game points), how many of
    the legal lay-aways reach it, and the row's number; which announcements
    each declarer could make with some exchange; the par, the auction both
    would bid knowing all cards (docs/par.md); and, when the file names a
    contract, a declarer and an exchange, what that bid and that exchange
    cost against the best exchange of the contract and against par.  Every
    legal lay-away counts: the table is exact.

    --row N --write-position FILE also writes row N's position at trick 1
    as a deal file, to solve or play on.

    \b
    Examples:
      kosolve exchange examples/dealt-open.json
      kosolve exchange --json examples/dealt.json
      kosolve exchange --discard tactical deal.json
      kosolve exchange examples/dealt.json --row 15 --write-position row15.json
    """
    if (row is None) != (write_position is None):
        given, missing = ("--row", "--write-position") if write_position is None else ("--write-position", "--row")
        raise click.UsageError(f"{given} needs {missing}: the row's position is written to a file")
    name, dealt_file = load_dealt(file, rules)
    if write_position is not None:
        check_target("--write-position", write_position, file)
    with tables(tt_mb):
        analyser = Analyser(tt_mb, threads)
    with progress_bar("exchange table", quiet) as progress:
        report = analyser.analyse_exchange(dealt_file, rules, progress=progress)
    if as_json:
        click.echo(json.dumps({"file": name, **report.to_json()}))
    else:
        click.echo(render_exchange_report(name, report, style_for(sys.stdout)))
    if write_position is not None and row is not None:
        text = json.dumps(deal_to_json(_row_deal(report, row, rules)), indent=2) + "\n"
        write_atomically(write_position, text)
