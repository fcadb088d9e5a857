"""The scoring table as docs/rules.md §6 prints it: a Markdown table of
every bonus's values, the Valat and the held bonuses.

>>> from kosolve.model.scoring import DEFAULT_TABLE
>>> print(scoring_table_markdown(DEFAULT_TABLE).splitlines()[2])
| Pagat ultimo | 3 | 6 / 12 | 8 / 16 | 10 / 20 | 24 |
"""

from __future__ import annotations

from kosolve.model.scoring import ScoringTable


def scoring_table_markdown(table: ScoringTable) -> str:
    """``table`` as a Markdown table, a row a bonus in the table's order,
    then the Valat and the held bonuses."""
    lines = [
        "| bonus | silent | Dreiblatt after/before | Zweiblatt after/before | Einblatt after/before | Solo |",
        "|---|---|---|---|---|---|",
    ]
    for row in table.rows:
        silent = "–" if row.silent is None else str(row.silent)
        pairs = [f"{after} / {before}" for after, before in (row.dreiblatt, row.zweiblatt, row.einblatt)]
        lines.append(f"| {row.title} | {silent} | {' | '.join(pairs)} | {row.solo} |")
    lines.append(f"| Valat | G × {table.valat_silent} | G × {table.valat_announced} announced (any time) | | | |")
    for title, value in (("Trull", table.trull), ("Four Kings", table.four_kings), ("Four Birds", table.four_birds)):
        lines.append(f"| {title} held | {value} | | | | |")
    return "\n".join(lines)


__all__ = ["scoring_table_markdown"]
