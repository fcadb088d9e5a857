"""The settling of a played hand into game points by the scoring table
(docs/rules.md §5–§6).

The table is data (:class:`~kosolve.model.scoring.ScoringTable`,
:data:`~kosolve.model.scoring.DEFAULT_TABLE`, in the model with the other
rules) and so are the rule options (:class:`Rules`); :func:`settle` reads
both.

Which cards count as *held* (Trull, Four Kings, Four Birds): docs/rules.md §5
counts a player's 16 cards at trick 1 plus his own discards, but a deal
file's pile mixes his discards with the talon cards he did not choose (the
defender's pile holds the talon cards the declarer left).  Kings and trull
cards may never be laid away (§3), so in a pile they can only be talon
cards: they count from the hand alone, which is exact.  The other birds
(II–IV) count from the hand and the pile, which is exact for the declarer
(his pile is his own discards and lay-away) and for the defender counts a
bird among the untaken talon cards as his: the file cannot tell them apart.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from kosolve.model.announcements import (
    ABSOLUT_THIRDS,
    BIRD_NAMES,
    BIRDS,
    PANZER_THIRDS,
    Announcement,
    check_announcements,
)
from kosolve.model.cards import KINGS, TRULL, Hand, points_of
from kosolve.model.deal import Deal
from kosolve.model.game import (
    CONTRACTS,
    DEFAULT_RULES,
    GAME_VALUES,
    SEATS,
    TRICKS_PER_GAME,
    Rules,
    Seat,
    seat_name,
)
from kosolve.model.scoring import BONUSES, DEFAULT_TABLE, HELD, ScoringError, ScoringTable

NEVER_LAID_AWAY: Final[Hand] = KINGS | TRULL


@dataclass(frozen=True)
class Item:
    """One line of a settlement: ``points`` go to ``to`` and come from the
    other player."""

    name: str
    """game, valat, a bonus of :data:`BONUSES`, or a held bonus of :data:`HELD`."""
    to: Seat
    points: int
    why: str

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "to": seat_name(self.to), "points": self.points, "why": self.why}


@dataclass(frozen=True)
class Settlement:
    """The game points of a played hand, itemised; zero-sum."""

    contract: str
    declarer: Seat
    declarer_thirds: int
    items: tuple[Item, ...]

    @property
    def declarer_points(self) -> int:
        return points_of(self.declarer_thirds)

    @property
    def totals(self) -> tuple[int, int]:
        """The net game points of (forehand, dealer)."""
        net = [0, 0]
        for item in self.items:
            net[item.to] += item.points
            net[1 - item.to] -= item.points
        return net[0], net[1]

    def to_json(self) -> dict[str, object]:
        return {
            "contract": self.contract,
            "declarer": seat_name(self.declarer),
            "declarer_thirds": self.declarer_thirds,
            "declarer_points": self.declarer_points,
            "items": [item.to_json() for item in self.items],
            "totals": {seat_name(seat): self.totals[seat] for seat in SEATS},
        }


@dataclass(frozen=True)
class Outcome:
    """What a whole game achieved, as far as the scoring cares: the
    declarer's thirds, who won every trick, and for each bird (in the order
    of :data:`BIRD_NAMES`) who made it and who beat it in its trick."""

    declarer_thirds: int
    valat: Seat | None = None
    """The seat that won all 16 tricks, if one did."""
    birds: tuple[tuple[Seat | None, Seat | None], ...] = ((None, None),) * len(BIRD_NAMES)
    """Per bird ``(made by, beaten in its trick by)``, None where nobody."""


def outcome_of(deal: Deal) -> Outcome:
    """The outcome of a whole game played out: 16 cards each at trick 1,
    the piles and all 32 cards of the play.

    >>> from kosolve.model.deal import Deal
    >>> from kosolve.model.cards import parse_hand
    >>> outcome_of(Deal("solo", 0, (parse_hand(["HK"]), parse_hand(["HQ"]))))
    Traceback (most recent call last):
    ...
    kosolve.model.scoring.ScoringError: settling needs a whole game: 16 cards each at trick 1, and the piles
    """
    if deal.first_trick != 1 or deal.piles is None:
        raise ScoringError("settling needs a whole game: 16 cards each at trick 1, and the piles")
    if len(deal.play) != 2 * TRICKS_PER_GAME:
        raise ScoringError(f"settling needs the whole play: {len(deal.play)} of {2 * TRICKS_PER_GAME} cards given")
    position = deal.position()
    tricks = position.tricks
    birds: list[tuple[Seat | None, Seat | None]] = []
    for bird in BIRDS:
        trick = tricks[bird.trick - 1]
        seat = next((player for player, card in trick.played() if card == bird.card), None)
        if seat is None:
            birds.append((None, None))
        else:
            birds.append((seat, None) if trick.winner == seat else (None, 1 - seat))
    winners = {trick.winner for trick in tricks}
    valat = winners.pop() if len(winners) == 1 else None
    return Outcome(position.declarer_thirds(), valat, tuple(birds))


def settle(deal: Deal, rules: Rules = DEFAULT_RULES, table: ScoringTable = DEFAULT_TABLE) -> Settlement:
    """The net game points of a whole game played out, itemised
    (docs/rules.md §5–§6): :func:`score` of its :func:`outcome_of`.

    The forehand leads his sixteen tarocks, the birds last, and takes every
    trick of a Dreiblatt (G = 3): a silent Valat (G × 4) replaces the game.

    >>> from kosolve.model.files import parse_deal
    >>> tarocks = "Sk XXI XX XIX XVIII XVII XVI XV XIV XIII XII XI IV III II I".split()
    >>> faces = [suit + rank for suit in "HDSC" for rank in "KQCJ"]
    >>> deal = parse_deal({"version": 1, "contract": "dreiblatt", "declarer": "forehand",
    ...     "hands": {"forehand": tarocks, "dealer": faces},
    ...     "piles": {"forehand": "X IX VIII VII VI V H1 H2 H3 H4 D1".split(),
    ...               "dealer": "D2 D3 D4 S10 S9 S8 S7 C10 C9 C8 C7".split()},
    ...     "announcements": [{"by": "forehand", "what": "pagat", "when": "before"}],
    ...     "play": [card for trick in zip(tarocks, faces) for card in trick]}, "valat.json")
    >>> settlement = settle(deal)
    >>> for item in settlement.items:
    ...     print(f"{item.points:+4d} {seat_name(item.to):<8}  {item.why}")
     +12 forehand  valat silent, made
     +12 forehand  pagat announced before, made
      +3 forehand  uhu silent, made
      +3 forehand  pelikan silent, made
      +3 forehand  quapil silent, made
      +1 forehand  trull held
      +3 forehand  four birds held
      +1 dealer    four kings held
    >>> settlement.totals
    (36, -36)
    """
    return score(deal, outcome_of(deal), rules, table)


def score(
    deal: Deal, outcome: Outcome, rules: Rules = DEFAULT_RULES, table: ScoringTable = DEFAULT_TABLE
) -> Settlement:
    """What ``outcome`` scores for ``deal``: its contract, declarer,
    announcements, hands at trick 1 and piles (its play is not read, so an
    outcome not yet played can be scored).

    The game item goes to the declarer when he wins, else to the defender;
    a Valat replaces it.  An announced bonus goes to its announcer when
    made and to the other player when it fails; an unannounced one scores
    silently for whoever achieves it, where the table has a silent value.
    A bird or the Valat announced by either player is no longer silent
    for the other.  Held bonuses: see the module's notes.

    >>> from kosolve.model.cards import parse_hand
    >>> from kosolve.model.deal import Deal
    >>> from kosolve.model.game import FOREHAND
    >>> deal = Deal("zweiblatt", FOREHAND, (parse_hand(["HK"]), parse_hand(["HQ"])), piles=(0, 0),
    ...             announcements=(Announcement(FOREHAND, "absolut", "before"),))
    >>> [(item.name, item.to, item.points) for item in score(deal, Outcome(declarer_thirds=120)).items]
    [('game', 0, 6), ('absolut', 0, 4)]
    """
    return scorer(deal, rules, table)(outcome)


def scorer(
    deal: Deal, rules: Rules = DEFAULT_RULES, table: ScoringTable = DEFAULT_TABLE
) -> Callable[[Outcome], Settlement]:
    """:func:`score` for many outcomes of one deal: the deal is checked and
    what does not depend on the outcome (the announcements, the held
    bonuses) is worked out once, as the score search's table of every way
    a hand can finish needs.

    >>> from kosolve.model.cards import parse_hand
    >>> from kosolve.model.deal import Deal
    >>> from kosolve.model.game import FOREHAND
    >>> deal = Deal("zweiblatt", FOREHAND, (parse_hand(["HK"]), parse_hand(["HQ"])), piles=(0, 0))
    >>> settle_as = scorer(deal)
    >>> [settle_as(Outcome(declarer_thirds=thirds)).totals for thirds in (106, 107)]
    [(-6, 6), (6, -6)]
    """
    if deal.contract not in CONTRACTS:
        raise ScoringError(f"unknown contract {deal.contract!r}")
    if deal.piles is None:
        raise ScoringError("settling needs the piles: the held bonuses count them")
    check_announcements(deal.announcements, deal.contract, deal.declarer, rules)
    declarer = deal.declarer
    value = GAME_VALUES[deal.contract]
    announced = {announcement.what: announcement for announcement in deal.announcements}
    rows = {name: table.row(name) for name in BONUSES}
    worths = {name: rows[name].announced(deal.contract, a.when) for name, a in announced.items() if name in rows}
    hand = deal.hands[declarer]
    held = tuple(
        Item(name, seat, table.held(name), f"{name.replace('_', ' ')} held")
        for seat, name in held_bonuses(deal.hands, deal.piles, deal.laid)
    )

    def result(announcement: Announcement, worth: int, made: bool) -> Item:
        points = worth * (2 if announcement.kontra else 1)
        to = announcement.by if made else 1 - announcement.by
        return Item(announcement.what, to, points, f"{announcement.describe()}, {'made' if made else 'failed'}")

    # Each announcement's item, made and failed, and each silent bonus's, by
    # its achiever: the same few items recur in every outcome.
    results = {
        (name, made): result(a, value * table.valat_announced if name == "valat" else worths[name], made)
        for name, a in announced.items()
        for made in (False, True)
    }
    silent = {
        (name, seat, beaten): Item(name, seat, worth, f"{name} silent, {'beaten in its trick' if beaten else 'made'}")
        for name in BONUSES
        if (worth := rows[name].silent) is not None
        for seat in SEATS
        for beaten in (False, True)
    }

    def settlement(outcome: Outcome) -> Settlement:
        thirds = outcome.declarer_thirds
        wins = thirds >= rules.win_thirds
        items: list[Item] = []
        if "valat" in announced:
            items.append(results["valat", outcome.valat == announced["valat"].by])
        elif outcome.valat is not None:
            items.append(Item("valat", outcome.valat, value * table.valat_silent, "valat silent, made"))
        else:
            winner = declarer if wins else 1 - declarer
            verdict = "won" if wins else "lost"
            items.append(Item("game", winner, value, f"game {verdict} with {points_of(thirds)} points"))
        goals = {
            "absolut": thirds >= ABSOLUT_THIRDS,
            "panzer": thirds >= PANZER_THIRDS,
            "without_trull": wins and not hand & TRULL,
            "without_kings": wins and not hand & KINGS,
        }
        for name in BONUSES:
            row = rows[name]
            if name in BIRD_NAMES:
                achiever, beaten_by = outcome.birds[BIRD_NAMES.index(name)]
            else:
                achiever, beaten_by = (declarer if goals[name] else None), None
            if name in announced:
                items.append(results[name, achiever == announced[name].by])
            elif row.silent is None:
                continue
            elif achiever is not None:
                items.append(silent[name, achiever, False])
            elif beaten_by is not None and rules.silent_bird_penalty:
                items.append(silent[name, beaten_by, True])
        items.extend(held)
        return Settlement(deal.contract, declarer, thirds, tuple(items))

    return settlement


def scoring_facts(deal: Deal) -> tuple[object, ...]:
    """What :func:`scorer`'s settlements read of ``deal`` besides the
    outcome: two deals with the same facts settle every outcome alike under
    the same rules (the score search's table of finished hands is built
    once for them)."""
    held = None if deal.piles is None else tuple(held_bonuses(deal.hands, deal.piles, deal.laid))
    hand = deal.hands[deal.declarer]
    return (deal.contract, deal.declarer, deal.announcements, not hand & TRULL, not hand & KINGS, held)


def held_bonuses(
    hands: tuple[Hand, Hand], piles: tuple[Hand, Hand], laid: tuple[Hand, Hand] | None = None
) -> list[tuple[Seat, str]]:
    """``(seat, bonus)`` for every held bonus of :data:`HELD`, read off each
    player's 16 cards at trick 1 and the cards he ``laid`` in his pile
    himself: exactly when they are known (a deal as dealt, a play file
    with ``laid``), else from his pile (see the module's notes).

    >>> from kosolve.model.cards import parse_hand
    >>> held_bonuses((parse_hand(["Sk", "XXI", "I"]), parse_hand(["HK"])), (0, 0))
    [(0, 'trull')]
    >>> birds = parse_hand(["I", "II", "III"])
    >>> held_bonuses((birds, 0), (0, parse_hand(["IV"])), laid=(0, 0))  # IV was a talon card left
    []
    >>> held_bonuses((birds, 0), (parse_hand(["IV"]), 0), laid=(parse_hand(["IV"]), 0))
    [(0, 'four_birds')]
    """
    found = []
    for seat in SEATS:
        own = piles[seat] & ~NEVER_LAID_AWAY if laid is None else laid[seat]
        held = hands[seat] | own
        found += [(seat, name) for name, cards in HELD.items() if held & cards == cards]
    return found


__all__ = [
    "Item",
    "Outcome",
    "Settlement",
    "held_bonuses",
    "outcome_of",
    "score",
    "scorer",
    "scoring_facts",
    "settle",
]
