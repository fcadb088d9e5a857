"""``kosolve view``: the seat view a player had at some point of a deal
file, written as a view file (docs/views.md) for ``kosolve odds``."""

from __future__ import annotations

import json

import click

from kosolve.cli.errors import InputError, shown
from kosolve.cli.loading import load_viewed
from kosolve.cli.options import Word, rules_options
from kosolve.model.cards import mask_of
from kosolve.model.game import SEAT_NAMES, Rules
from kosolve.model.quoting import source_name
from kosolve.model.view import SeatViewError, auction_view, view_of, view_to_json


def view_file_text(data: dict[str, object]) -> str:
    """A view file's JSON with one key a line, each array on its line.

    >>> print(view_file_text({"version": 1, "other": {"pile": [], "holds": []}}))
    {
      "version": 1,
      "other": {"pile": [], "holds": []}
    }
    """
    lines = [f"  {json.dumps(key)}: {json.dumps(value)}" for key, value in data.items()]
    return "{\n" + ",\n".join(lines) + "\n}"


@click.command("view")
@click.argument("file", metavar="DEAL.json", type=click.Path(allow_dash=True, readable=False))
@click.option("--seat", type=Word(SEAT_NAMES), required=True, help="The player whose view it is.")
@click.option(
    "--at",
    type=click.IntRange(min=0),
    metavar="N",
    help="The view after the first N cards of the play (default: after all of it).",
)
@click.option(
    "--auction",
    is_flag=True,
    help="The view before the auction instead: his 16 cards and 8 discards (a deal as dealt only).",
)
@rules_options
def view_command(file: str, seat: str, at: int | None, auction: bool, rules: Rules) -> None:
    """Write, as a view file on stdout, what the player in --seat knew at
    that point of a deal file: his cards at trick 1 and his pile, what he
    saw of the other's (kings, trull cards and tarocks in a pile; from a
    deal as dealt also the talon cards), the announcements and the play so
    far.  Any played hand can then be asked again from either seat with
    ``kosolve odds``.

    A play file cannot tell the defender's discards from the talon cards
    left to him, nor which cards the declarer took; a deal as dealt can, so
    its views know more.

    \b
    Examples:
      kosolve view examples/played.json --seat dealer --at 4 > view.json
      kosolve view examples/dealt.json --seat forehand --auction
    """
    name, _, deal, dealt_file = load_viewed(file, rules)
    number = SEAT_NAMES.index(seat)
    try:
        if auction:
            if dealt_file is None:
                raise SeatViewError("--auction needs a deal as dealt (the key dealt), which knows the discards")
            if at is not None:
                raise SeatViewError("--at has no meaning before the auction")
            view = auction_view(dealt_file.dealt, number)
        else:
            if deal is None:
                raise SeatViewError("the deal as dealt names no contract, declarer and exchange: try --auction")
            taken = None
            if dealt_file is not None and dealt_file.exchange is not None:
                taken = mask_of(dealt_file.exchange.take)
            view = view_of(deal, number, at, taken=taken)
    except SeatViewError as error:
        raise InputError(f"{source_name(name)}: {shown(error)}") from None
    click.echo(view_file_text(view_to_json(view)))
