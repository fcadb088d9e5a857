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
from kosolve.cli.running import progress_bar
from kosolve.dealing.where import Condition, WhereError, dealt_where
from kosolve.model.deal import deal_to_json
from kosolve.model.dealt_file import DealtFile, dealt_to_json
from kosolve.model.game import CONTRACTS, DEFAULT_RULES, DISCARD_VARIANTS, SEAT_NAMES
from kosolve.model.reprs import counted

MAX_SEED: Final = 2**32
"""A random seed is below this: short enough to copy from the note."""
DEFAULT_TRIES: Final = 1_000_000
"""Deals tried for a condition at most: about a minute on one core."""


def _condition(ctx: click.Context, param: click.Parameter, text: str | None) -> str | None:
    """The condition read before anything is dealt: one that cannot be read
    is one line naming its character, exit status 2, nothing before it."""
    if text is not None:
        try:
            Condition(text)
        except WhereError as error:
            raise click.UsageError(f"--where: {error}") from None
    return text


def _everything(file: DealtFile) -> bool:
    return True


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
@click.option(
    "--where",
    metavar="EXPR",
    callback=_condition,
    help="Keep only the deals that meet the condition EXPR over each seat's cards and the auction's outcome,"
    " e.g. \"declarer.tarocks >= 12 and 'I' in declarer.hand\" (the language: docs/dealing.md). The hands are"
    " read as the line writes them: at trick 1, or as dealt with --dealt. N counts the deals kept.",
)
@click.option(
    "--tries",
    type=click.IntRange(min=1),
    default=DEFAULT_TRIES,
    show_default=True,
    help="With --where: deal at most this many; too few deals met the condition then is an error (exit status 1).",
)
def deal_command(
    seed: int | None,
    count: int,
    dealt: bool,
    contract: str | None,
    declarer: str | None,
    discard: str,
    where: str | None,
    tries: int,
) -> None:
    """Deal N deals the way real ones are dealt: shuffle, the packets of
    four, each player's discard, the auction by a rule of thumb (the
    stronger hand bids by its strength) and the declarer's talon exchange
    (docs/dealing.md).  --contract and --declarer fix the auction's
    outcome; --where keeps the deals that meet a condition, exactly those
    the same seed deals without it, filtered, and says on stderr how many
    it tried.  The same seed gives the same deals on every machine and
    Python version; without --seed a random one is taken and said on
    stderr.

    \b
    Examples:
      kosolve deal --seed 1 -n 1000 > deals.jsonl
      kosolve deal --seed 7 -n 100 --contract solo --declarer forehand
      kosolve deal --seed 2 -n 50 --dealt > dealt.jsonl
      kosolve deal --seed 1 -n 100 --where "forehand.tarocks >= 10 and 'I' in forehand.hand and dealer.kings == 0"
      kosolve deal --seed 3 -n 20 --dealt --where "contract == 'solo' and declarer.trull >= 2"
    """
    if where is None and tries != DEFAULT_TRIES:
        raise click.UsageError("--tries bounds the deals --where tries: give a condition with --where")
    if seed is None:
        seed = random.SystemRandom().randrange(MAX_SEED)
        click.echo(f"kosolve deal: seed {seed} (--seed {seed} deals the same again)", err=True)
    seat = None if declarer is None else SEAT_NAMES.index(declarer)
    keep = _everything if where is None else Condition(where, as_dealt=dealt)
    deals = dealt_where(
        random.Random(seed),
        keep,
        count=count,
        tries=None if where is None else tries,
        contract=contract,
        declarer=seat,
        discard=discard,
    )
    kept = tried = 0
    with progress_bar("deals kept", quiet=where is None) as progress:
        for file, tried_by_now in deals:
            data = dealt_to_json(file) if dealt else deal_to_json(file.play_deal())
            click.echo(json.dumps(data))
            kept, tried = kept + 1, tried_by_now
            if progress is not None:
                progress(kept, count)
    if where is None:
        return
    # The dealer stops at the last deal asked for, or else at the budget.
    tried = tried if kept == count else tries
    share = f" ({kept / tried:.1%})" if tried else ""
    click.echo(f"kosolve deal: {counted(kept, 'deal')} kept of {tried:,} tried{share}", err=True)
    if kept < count:
        raise click.ClickException(
            f"--where: {kept} of the {counted(count, 'deal')} asked for met the condition in"
            f" {tries:,} {'try' if tries == 1 else 'tries'}: loosen it, or allow more with --tries"
        )
