"""What can be announced (docs/rules.md §5): the birds, Valat and the declarer's
goals, when, and by whom; the :class:`Announcement` value object and the
checks that hold whatever the rule options, or that the options decide.

>>> from kosolve.model.game import FOREHAND
>>> Announcement(FOREHAND, "uhu", "after")
Announcement(by=0, what='uhu', when='after', kontra=False)
>>> [(bird.name, card_name(bird.card), bird.trick) for bird in BIRDS][:2]
[('pagat', 'I', 16), ('uhu', 'II', 15)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from kosolve.model.cards import PAGAT, PELIKAN, QUAPIL, UHU, Card, card_name, thirds_for_points
from kosolve.model.game import DEFAULT_RULES, SEATS, OptionError, Rules, Seat, seat_name
from kosolve.model.quoting import quote


@dataclass(frozen=True)
class Bird:
    """A bird announcement: its ``name``, its ``card`` (I to IV) and the
    ``trick`` (1 to 16) it must win itself."""

    name: str
    card: Card
    trick: int

    def __repr__(self) -> str:
        return f"Bird(name={self.name!r}, card={card_name(self.card)!r}, trick={self.trick!r})"


BIRDS: Final = (
    Bird("pagat", PAGAT, 16),
    Bird("uhu", UHU, 15),
    Bird("pelikan", PELIKAN, 14),
    Bird("quapil", QUAPIL, 13),
)
"""The four birds, from the Pagat (I, the last trick) to the Quapil (IV,
the fourth last)."""
BIRD_NAMES: Final = tuple(bird.name for bird in BIRDS)
DECLARER_ANNOUNCEMENTS: Final = ("absolut", "panzer", "without_trull", "without_kings")
"""Announcements only the declarer can make: they are about his points or
his hand."""
ANNOUNCEMENTS: Final = (*BIRD_NAMES, "valat", *DECLARER_ANNOUNCEMENTS)
"""Everything that can be announced."""
TIMINGS: Final = ("before", "after")
"""When a bonus was announced: before or after the declarer exposes the
talon (a Solo has no talon exchange and so no timing)."""

ABSOLUT_POINTS: Final = 40
PANZER_POINTS: Final = 50
ABSOLUT_THIRDS: Final = thirds_for_points(ABSOLUT_POINTS)
"""The declarer's thirds that make an Absolut (40 points)."""
PANZER_THIRDS: Final = thirds_for_points(PANZER_POINTS)
"""The declarer's thirds that make a Panzer (50 points)."""


class AnnouncementError(OptionError):
    """An announcement the rules, or the rule options in force, do not allow
    (``option`` the rule option that would allow it)."""


def bird_named(name: str) -> Bird:
    """The bird of that announcement name.

    >>> bird_named("pelikan").trick
    14
    """
    for bird in BIRDS:
        if bird.name == name:
            return bird
    raise AnnouncementError(f"unknown bird {quote(name)}")


@dataclass(frozen=True)
class Announcement:
    """An announcement: ``by`` which seat, ``what`` (one of
    :data:`ANNOUNCEMENTS`), ``when`` (``"before"`` or ``"after"`` the talon
    is exposed; None in a Solo, which has no talon), and whether the
    opponent said ``kontra`` to it (a rule option).

    >>> from kosolve.model.game import FOREHAND
    >>> Announcement(FOREHAND, "pagatt", "before")
    Traceback (most recent call last):
    ...
    kosolve.model.announcements.AnnouncementError: unknown announcement 'pagatt'
    """

    by: Seat
    what: str
    when: str | None = None
    kontra: bool = False

    def __post_init__(self) -> None:
        if self.by not in SEATS:
            raise AnnouncementError(f"unknown seat {self.by!r}")
        if self.what not in ANNOUNCEMENTS:
            raise AnnouncementError(f"unknown announcement {quote(self.what)}")
        if self.when is not None and self.when not in TIMINGS:
            raise AnnouncementError(f"unknown timing {quote(self.when)} (expected before or after)")

    def describe(self) -> str:
        """The announcement in words, as in the settlement.

        >>> from kosolve.model.game import FOREHAND
        >>> Announcement(FOREHAND, "pagat", "before", kontra=True).describe()
        'pagat announced before, kontra'
        """
        text = f"{self.what} announced" + (f" {self.when}" if self.when else "")
        return text + (", kontra" if self.kontra else "")


def announcement_to_json(announcement: Announcement) -> dict[str, object]:
    """An announcement as a file writes it: ``when`` and ``kontra`` only
    where they say something.

    >>> from kosolve.model.game import DEALER
    >>> announcement_to_json(Announcement(DEALER, "valat", "before", kontra=True))
    {'by': 'dealer', 'what': 'valat', 'when': 'before', 'kontra': True}
    """
    data: dict[str, object] = {"by": seat_name(announcement.by), "what": announcement.what}
    if announcement.when is not None:
        data["when"] = announcement.when
    if announcement.kontra:
        data["kontra"] = True
    return data


def announcement_problems(
    announcements: Sequence[Announcement], contract: str, declarer: Seat
) -> list[tuple[int, str, str]]:
    """What breaks the rules in ``announcements`` whatever the rule options,
    as ``(index, field, message)``: a timing given in a Solo or missing
    otherwise, a declarer's goal announced by the defender, the same thing
    announced twice.  A bird the announcer does not hold may be announced.

    >>> from kosolve.model.game import FOREHAND
    >>> announcement_problems([Announcement(FOREHAND, "valat")], "dreiblatt", FOREHAND)
    [(0, 'when', 'required in a dreiblatt: before or after')]
    """
    problems: list[tuple[int, str, str]] = []
    first: dict[str, int] = {}
    for index, announcement in enumerate(announcements):
        if contract == "solo" and announcement.when is not None:
            problems.append((index, "when", "a Solo has no before or after: leave it out"))
        elif contract != "solo" and announcement.when is None:
            problems.append((index, "when", f"required in a {contract}: before or after"))
        if announcement.what in DECLARER_ANNOUNCEMENTS and announcement.by != declarer:
            defender = seat_name(announcement.by)
            problems.append(
                (index, "by", f"{announcement.what} is the declarer's announcement; the {defender} defends")
            )
        if announcement.what in first:
            problems.append(
                (
                    index,
                    "what",
                    f"{announcement.what} is already announced at announcements[{first[announcement.what]}]",
                )
            )
        first.setdefault(announcement.what, index)
    return problems


def check_announcements(
    announcements: Sequence[Announcement], contract: str, declarer: Seat, rules: Rules = DEFAULT_RULES
) -> None:
    """Raise :class:`AnnouncementError` naming the first announcement that
    breaks the rules whatever the options (:func:`announcement_problems`)
    or that the rule options in force do not allow: a defender's without
    ``defender_announcements``, a Kontra without ``kontra``.  The error
    names the rule option that would allow it.

    >>> from kosolve.model.game import FOREHAND
    >>> check_announcements([Announcement(FOREHAND, "pagat", "after", kontra=True)], "dreiblatt", FOREHAND)
    Traceback (most recent call last):
    ...
    kosolve.model.announcements.AnnouncementError: announcements[0].kontra: Kontra is off (rule option kontra)
    """
    problems = announcement_problems(announcements, contract, declarer)
    if problems:
        index, name, message = problems[0]
        raise AnnouncementError(f"announcements[{index}].{name}: {message}")
    for index, announcement in enumerate(announcements):
        if announcement.by != declarer and not rules.defender_announcements:
            raise AnnouncementError(
                f"announcements[{index}].by: the {seat_name(announcement.by)} defends,"
                " and defender announcements are off",
                "defender_announcements",
            )
        if announcement.kontra and not rules.kontra:
            raise AnnouncementError(f"announcements[{index}].kontra: Kontra is off", "kontra")
