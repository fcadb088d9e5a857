"""``kosolve deal``: realistic deals by the dealing procedure
(:mod:`kosolve.dealing`), as JSON Lines on stdout, one deal file a
line: play positions at trick 1 by default, deals as dealt with
``--dealt``."""

from __future__ import annotations

import json
import random
from typing import Final

import click

from kosolve.cli.errors import switch_of
from kosolve.cli.options import Word
from kosolve.dealing import deal_bid
from kosolve.model.deal import deal_to_json
from kosolve.model.dealt_file import dealt_to_json
from kosolve.model.game import CONTRACTS, DEFAULT_RULES, DISCARD_VARIANTS, SEAT_NAMES

MAX_SEED: Final = 2**32
"""A random seed is below this: short enough to copy from the note."""


@click.command("deal")
# No negative seeds: random.Random seeds by the absolute value, so -5 would
# deal what 5 deals.
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    help="The seed, 0 or more: the same seed gives the same deals everywhere  [default: a random one, said on stderr]",
)
@click.option("-n", "count", type=click.IntRange(min=0), default=1, show_default=True, help="How many deals.")
@click.option(
    "--dealt",
    is_flag=True,
    help="Write each deal as dealt (talon, hands, personal cards, discards) with the bid and exchange chosen,"
    " the form kosolve exchange reads, instead of the play position at trick 1.",
)
@click.option("--contract", type=Word(CONTRACTS), help="Every deal in this contract.")
@click.option("--declarer", type=Word(SEAT_NAMES), help="Every deal declared by this seat.")
@click.option(
    switch_of("discard"),
    type=Word(DISCARD_VARIANTS),
    default=DEFAULT_RULES.discard,
    show_default=True,
    help="The discard variant the players lay away by; give kosolve the same one to read a deal as dealt.",
)
def deal_command(
    seed: int | None, count: int, dealt: bool, contract: str | None, declarer: str | None, discard: str
) -> None:
    """Deal N deals the way real ones are dealt: shuffle, the packets of
    four, each player's discard, the auction by a rule of thumb (the
    stronger hand bids by its strength) and the declarer's talon exchange
    (docs/dealing.md).  --contract and --declarer fix the auction's
    outcome.  The same seed gives the same deals on every machine and
    Python version; without --seed a random one is taken and said on
    stderr.

    \b
    Examples:
      kosolve deal --seed 1 -n 1000 > deals.jsonl
      kosolve deal --seed 7 -n 100 --contract solo --declarer forehand
      kosolve deal --seed 2 -n 50 --dealt > dealt.jsonl
    """
    if seed is None:
        seed = random.SystemRandom().randrange(MAX_SEED)
        click.echo(f"kosolve deal: seed {seed} (--seed {seed} deals the same again)", err=True)
    rng = random.Random(seed)
    seat = None if declarer is None else SEAT_NAMES.index(declarer)
    for _ in range(count):
        file = deal_bid(rng, contract, seat, discard)
        data = dealt_to_json(file) if dealt else deal_to_json(file.play_deal())
        click.echo(json.dumps(data))
