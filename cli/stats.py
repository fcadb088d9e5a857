"""``kosolve stats``: a results file grouped and counted, through
:mod:`kosolve.stats` (docs/statistics.md)."""

from __future__ import annotations

import json

import click

from kosolve.cli.errors import InputError
from kosolve.cli.running import check_target, whole_file, write_atomically
from kosolve.model.quoting import source_name
from kosolve.stats.figures import Key, Table, column_type, tabulate
from kosolve.stats.frames import ExtraError, running_png, table_png, write_parquet
from kosolve.stats.output import to_csv, to_text
from kosolve.stats.rows import Rows, StatsError, read_rows
from kosolve.stats.svg import Running, running_svg, table_svg

PLOTS = (".svg", ".png")


def _running_titles(rows: Rows) -> tuple[str, str]:
    """What the running mean's picture shows: which bots, how many deals."""
    question = rows.question or {}
    a, b = question.get("a", "A"), question.get("b", "B")
    return (
        f"A {a} - B {b}: game points a deal",
        f"the running mean over {len(rows.rows)} deals, its 95% interval shaded",
    )


def _plot(path: str, rows: Rows, table: Table) -> None:
    """Draw the table (an arena's file without --by: its running mean difference) into ``path``."""
    png = path.lower().endswith(".png")
    if rows.kind == "arena" and not table.by:
        differences = [float(d) for row in rows.rows if isinstance(d := row["difference"], int)]
        running, (title, subtitle) = Running.of(differences), _running_titles(rows)
        if png:
            with whole_file(path) as temporary:
                running_png(running, f"{title}\n{subtitle}", temporary)
        else:
            write_atomically(path, running_svg(running, title, subtitle))
    elif png:
        with whole_file(path) as temporary:
            table_png(table, temporary)
    else:
        write_atomically(path, table_svg(table))


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("results", metavar="RESULTS.jsonl")
@click.option(
    "--deals",
    metavar="DEALS.jsonl",
    help="The deals the batch read (kosolve deal's lines, or the folder): each seat's cards as columns"
    " (declarer.tarocks, forehand.kings, ...).",
)
@click.option(
    "--where",
    metavar="EXPR",
    help="Keep the deals that meet a condition over the seats' cards, as kosolve deal --where reads it"
    " (needs --deals).",
)
@click.option(
    "--by",
    multiple=True,
    metavar="KEY",
    help="Group by this column; COLUMN:WIDTH puts numbers in bins of WIDTH. Repeat for groups of groups.",
)
@click.option(
    "--what",
    multiple=True,
    metavar="COLUMN",
    help="Count this column in each group: a mean for numbers, a share for yes/no. Repeat for more"
    "  [default: by the file's kind, e.g. points and won]",
)
@click.option("--json", "as_json", is_flag=True, help="Print the table as one JSON object (stats format 1).")
@click.option("--csv", "as_csv", is_flag=True, help="Print the table as CSV, a line a group.")
@click.option("--columns", is_flag=True, help="List the columns the rows have, with their types, and stop.")
@click.option(
    "--plot",
    metavar="FILE.svg|FILE.png",
    help="Also draw the table (an arena's file without --by: the running mean difference); PNG needs matplotlib.",
)
@click.option("--parquet", metavar="FILE", help="Also write the rows, a row a deal, as Parquet (needs pyarrow).")
def stats_command(
    results: str,
    deals: str | None,
    where: str | None,
    by: tuple[str, ...],
    what: tuple[str, ...],
    as_json: bool,
    as_csv: bool,
    columns: bool,
    plot: str | None,
    parquet: str | None,
) -> None:
    """Group the deals of RESULTS.jsonl, a results file of kosolve batch or
    kosolve arena, and count each group: how many deals, the mean of a
    number (points, game points) and the share of a yes/no (won, a goal
    makeable), each with its 95% interval (docs/statistics.md).  A row is
    a deal; --columns lists what a file's rows hold.

    \b
    Examples:
      kosolve stats results.jsonl
      kosolve stats results.jsonl --deals deals.jsonl --by declarer.tarocks --what won
      kosolve stats results.jsonl --deals deals.jsonl --by declarer.tarocks --what makeable.declarer.valat
      kosolve stats results.jsonl --deals deals.jsonl --where "'I' in declarer.hand" --what makeable.declarer.pagat
      kosolve stats results.jsonl --by contract --what points --plot points.svg
      kosolve stats results.jsonl --deals deals.jsonl --by declarer.points:5 --csv
      kosolve stats match.jsonl --plot running.svg
      kosolve stats results.jsonl --deals deals.jsonl --parquet results.parquet
    """
    if as_json and as_csv:
        raise InputError("--json and --csv are two forms of the same table: give one")
    if plot is not None and not plot.lower().endswith(PLOTS):
        raise InputError(f"--plot {source_name(plot)}: a picture is FILE.svg or FILE.png")
    for option, target in (("--plot", plot), ("--parquet", parquet)):
        if target is not None:
            check_target(option, target, results, deals, reads="file")
    try:
        # Each seat's cards cost time on a large file: only those the table reads.
        needed = None if columns or parquet is not None else [*(Key.parse(key).column for key in by), *what]
        rows = read_rows(results, deals, where, needed)
        table = None
        if not columns:
            table = tabulate(rows, by, what, where)
            if parquet is not None:
                with whole_file(parquet) as temporary:
                    write_parquet(rows, temporary)
            if plot is not None:
                _plot(plot, rows, table)
    except (StatsError, ExtraError) as error:
        raise InputError(str(error)) from None
    except OSError as error:
        raise click.FileError(error.filename or "", error.strerror or str(error)) from None
    # Printed outside the try: a closed pipe is the group's to end quietly, not a file error.
    if table is None:
        for column in rows.columns:
            click.echo(f"{column}  {column_type(rows.rows, column)}")
    elif as_json:
        click.echo(json.dumps(table.to_json()))
    elif as_csv:
        click.echo(to_csv(table), nl=False)
    else:
        click.echo(to_text(table))


__all__ = ["stats_command"]
