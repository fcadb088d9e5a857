"""A whole game of Kosakeln from the deal as dealt to the settlement, as a
sequence of decisions, each taken by one seat from what that seat knows.

The deal as dealt (:class:`~kosolve.model.dealt.Dealt`) already holds the
discards: the dealer made them.  Then come, in order (docs/bots.md):

1. **the auction** (``bid``): the calls of docs/par.md, the forehand first;
   when both pass nothing is played;
2. **the round before the talon** (in a Solo, which has no talon, the only
   round, whose announcements have no timing), in steps
   (:data:`ROUND_STEPS`): the declarer announces bonuses one at a time
   until he says ``done`` (``announce``); under
   ``Rules.defender_announcements`` the defender then announces birds or
   the Valat the same way; under ``Rules.kontra`` the defender then says
   Kontra to the declarer's announcements of the round one at a time
   until ``done`` (``kontra``), and the declarer to the defender's.  A
   step whose only option is ``done`` is not asked;
3. **the talon choice** (``take``) and **the lay-away** (``lay_away``);
4. **the round after the talon**, in the same steps;
5. **the play** (``play``), 32 cards; then the hand is settled
   (:func:`~kosolve.analysis.scoring.settle`).

Every decision lists its legal options in a canonical order: calls as
docs/par.md orders them (pass, hold, the bids from the lowest up), talon
choices in talon order, lay-aways in the order
:func:`~kosolve.model.dealt.lay_aways` makes them, ``done`` and then the
bonuses in :data:`~kosolve.model.announcements.ANNOUNCEMENTS` order (for
a Kontra, the other's announcements of the round not yet doubled, in the
order they were made), cards in the hand diagram's order.

>>> import random
>>> from kosolve.dealing import deal_as_dealt
>>> game = Game(deal_as_dealt(random.Random(3)))
>>> decision = game.decision()
>>> decision.kind, seat_name(decision.seat), decision.options
('bid', 'forehand', ('pass', 'dreiblatt', 'zweiblatt', 'einblatt', 'solo'))
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from kosolve.analysis.scoring import Settlement, settle
from kosolve.model.announcements import (
    ANNOUNCEMENTS,
    Announcement,
    AnnouncementError,
    announcement_to_json,
    check_announcements,
)
from kosolve.model.auction import OPENING, AuctionState, after_call, auction_calls
from kosolve.model.cards import Card, Hand, card_name, hand_cards, hand_names, mask_of
from kosolve.model.deal import Deal
from kosolve.model.dealt import Dealt, Exchange, lay_aways, talon_choices
from kosolve.model.dealt_file import DealtFile
from kosolve.model.game import CONTRACTS, DEFAULT_RULES, Position, Rules, Seat, seat_name
from kosolve.model.reprs import readable_repr
from kosolve.model.view import KEYS as VIEW_KEYS
from kosolve.model.view import TAROCKS, SeatView, auction_view, view_of, view_to_json

KINDS: Final = ("bid", "announce", "kontra", "take", "lay_away", "play")
"""The kinds of decision, in the order a game first meets them."""
DONE: Final = "done"
"""The option that ends a seat's announcements or Kontras of a step."""
DECLARER_STEP: Final = 0
DEFENDER_STEP: Final = 1
ROUND_STEPS: Final = (
    ("announce", DECLARER_STEP),
    ("announce", DEFENDER_STEP),
    ("kontra", DEFENDER_STEP),
    ("kontra", DECLARER_STEP),
)
"""The steps of an announcement round, in order, as (kind, whose step):
the declarer's announcements, the defender's (``Rules.defender_announcements``),
the defender's Kontras on the declarer's announcements of the round, the
declarer's on the defender's (``Rules.kontra``).  The article is silent on
the order: kosolve lets each seat answer what it has heard, the declarer
speaking first as the one who named the game (docs/rules.md §5.1)."""
Option = str | tuple[Card, ...] | Hand | Card
"""A legal option: a call, an announcement or the announcement a Kontra
doubles (str), a talon choice (the cards in talon order), a lay-away (a
hand) or a card."""


class GameError(ValueError):
    """A choice that is not one of the decision's options
    (:class:`ChoiceError`), or a game asked for a decision after its end."""


class ChoiceError(GameError):
    """A choice that is not one of the decision's options: the one check
    of a choice's range (:meth:`Game.choose`), which the arena, the
    protocol, the web game and the environments each say in their words."""

    def __init__(self, choice: int, options: int, kind: str) -> None:
        super().__init__(f"choice {choice} is not one of the {options} options of this {kind}")
        self.choice = choice
        self.options = options
        """How many options the decision had."""


@dataclass(frozen=True)
class Knowledge:
    """What the seat to decide knows: his view of the deal as dealt
    (``auction``), the calls, and once known the contract, the declarer,
    the talon (exposed for both), the talon cards taken, his own lay-away,
    the announcements, and during the play his seat view (docs/views.md).
    The worlds a bot deals before the play are those of ``auction`` and
    the talon (:func:`~kosolve.sampling.worlds.random_worlds`)."""

    auction: SeatView
    """His view before the auction (:func:`~kosolve.model.view.auction_view`):
    his 16 cards after the pick-up, his discards, the other's tarocks laid
    away face up; it stays what he knows of the deal as dealt."""
    calls: tuple[str, ...]
    contract: str | None = None
    declarer: Seat | None = None
    talon: tuple[Card, ...] | None = None
    take: tuple[Card, ...] | None = None
    lay_away: Hand | None = None
    """His own lay-away (the declarer's, once made)."""
    announcements: tuple[Announcement, ...] = ()
    seat_view: SeatView | None = None
    """During the play: his seat view before his card."""

    def __repr__(self) -> str:
        return readable_repr(self, cards=("talon", "take"), hands=("lay_away",))

    @property
    def seat(self) -> Seat:
        return self.auction.view

    def to_json(self) -> dict[str, object]:
        """The view a protocol bot reads (docs/protocol.md): during the play
        the seat view of docs/views.md; before it, the same keys as far as
        they are known (his pile: his discards and his lay-away); either
        with ``calls``, ``talon`` and ``take`` added."""
        extra: dict[str, object] = {
            "calls": list(self.calls),
            "talon": None if self.talon is None else [card_name(c) for c in self.talon],
            "take": None if self.take is None else [card_name(c) for c in self.take],
        }
        if self.seat_view is not None:
            return {**view_to_json(self.seat_view), **extra}
        known = {
            **view_to_json(replace(self.auction, pile=self.auction.pile | (self.lay_away or 0))),
            "contract": self.contract,
            "declarer": None if self.declarer is None else seat_name(self.declarer),
            "announcements": [announcement_to_json(a) for a in self.announcements],
            "play": [],
        }
        return {**{key: known[key] for key in VIEW_KEYS if key in known}, **extra}


@dataclass(frozen=True)
class Decision:
    """One decision of a game: its kind, the seat that takes it, the legal
    options in canonical order, and what that seat knows."""

    kind: str
    seat: Seat
    options: tuple[Option, ...]
    knowledge: Knowledge

    def options_json(self) -> list[object]:
        """The options as a protocol bot reads them (docs/protocol.md)."""
        return [option_json(self.kind, option) for option in self.options]

    def to_json(self) -> dict[str, object]:
        """The protocol's message for this decision."""
        return {
            "decision": self.kind,
            "seat": seat_name(self.seat),
            "view": self.knowledge.to_json(),
            "legal": self.options_json(),
        }


def option_json(kind: str, option: Option) -> object:
    """One option in JSON: a call, an announcement or ``done`` as a string;
    a talon choice as its cards in talon order; a lay-away as its cards in
    the hand diagram's order; a card by its name."""
    if kind in ("bid", "announce", "kontra"):
        return option
    if kind == "take":
        assert isinstance(option, tuple)
        return [card_name(c) for c in option]
    assert isinstance(option, int)
    return hand_names(option) if kind == "lay_away" else card_name(option)


@dataclass(frozen=True)
class Move:
    """A decision taken: its kind, the seat and the option chosen."""

    kind: str
    seat: Seat
    choice: int
    option: Option

    def __repr__(self) -> str:
        """With the option as a player reads it: cards by name.

        >>> Move("card", 0, 2, 53)
        Move(kind='card', seat=0, choice=2, option='Sk')
        """
        return (
            f"Move(kind={self.kind!r}, seat={self.seat!r}, choice={self.choice!r},"
            f" option={option_json(self.kind, self.option)!r})"
        )

    def to_json(self) -> dict[str, object]:
        """The move as the game's record keeps it: everything, for after the game."""
        return {
            "decision": self.kind,
            "seat": seat_name(self.seat),
            "choice": self.choice,
            "option": option_json(self.kind, self.option),
        }

    def seen_by(self, seat: Seat) -> dict[str, object]:
        """The move as ``seat`` sees it at the table: the whole move when
        it is his own or open (a call, an announcement, the talon choice
        from the exposed talon, a card); of the other's lay-away only the
        tarocks, which go face up (docs/rules.md §3.5), and neither the
        face-down cards nor the option's index, which would tell them."""
        if seat == self.seat or self.kind != "lay_away":
            return self.to_json()
        assert isinstance(self.option, int)
        return {"decision": self.kind, "seat": seat_name(self.seat), "face_up": hand_names(self.option & TAROCKS)}


class Game:
    """A game in progress: ask :meth:`decision`, answer with :meth:`choose`
    until :attr:`over`; :attr:`deal` is then the hand played (None when both
    passed) and :attr:`settlement` its settlement."""

    def __init__(self, dealt: Dealt, rules: Rules = DEFAULT_RULES) -> None:
        self.dealt = dealt
        self.rules = rules
        self.calls: list[str] = []
        self.auction: AuctionState | None = OPENING
        self.declarer: Seat | None = None
        self.contract: str | None = None
        self.announcements: list[Announcement] = []
        self.round: str | None = None
        """The announcement round under way: ``before``, ``after``, or
        ``None`` in a Solo's only round."""
        self.step = 0
        """The step of the round under way (an index of :data:`ROUND_STEPS`)."""
        self.take: tuple[Card, ...] | None = None
        self.lay_away: Hand | None = None
        self.position: Position | None = None
        self.moves: list[Move] = []
        self.phase = "bid"
        self._deal: Deal | None = None
        self._settlement: Settlement | None = None

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def deal(self) -> Deal | None:
        """The hand as played so far (the play position with its
        announcements and play); None before the play, and when both passed."""
        if self._deal is None or self.position is None:
            return None
        return replace(self._deal, announcements=tuple(self.announcements), play=tuple(self.position.move_stack))

    @property
    def dealt_file(self) -> DealtFile | None:
        """The hand as a deal as dealt with its bid, exchange, announcements
        and play so far (so a review knows the talon cards the defender saw
        taken); None before the play, and when both passed."""
        if self.position is None:
            return None
        return DealtFile(
            self.dealt,
            self.contract,
            self.declarer,
            self._exchange(),
            tuple(self.announcements),
            tuple(self.position.move_stack),
            discard=self.rules.discard,
        )

    @property
    def settlement(self) -> Settlement | None:
        """The settlement of a game over (None before, and when both passed),
        worked out once."""
        if self._settlement is None and self.over:
            deal = self.deal
            self._settlement = None if deal is None else settle(deal, self.rules)
        return self._settlement

    @property
    def points(self) -> tuple[int, int]:
        """Each seat's game points: the settlement's; 0 each when both
        passed, and before the end."""
        settlement = self.settlement
        return (0, 0) if settlement is None else settlement.totals

    def totals_json(self) -> dict[str, int] | None:
        """The settlement's totals by seat name; None without a settlement."""
        settlement = self.settlement
        return None if settlement is None else {seat_name(s): t for s, t in enumerate(settlement.totals)}

    def knowledge(self, seat: Seat) -> Knowledge:
        """What ``seat`` knows now."""
        dealt = self.dealt
        # Exposed for the talon choice and ever after; a Solo never sees it.
        talon = dealt.talon if self.take is not None or self.phase == "take" else None
        seat_view = None
        deal = self.deal
        if deal is not None:
            taken = mask_of(self.take) if self.take else None
            seat_view = view_of(deal, seat, taken=taken)
        return Knowledge(
            auction=auction_view(dealt, seat),
            calls=tuple(self.calls),
            contract=self.contract,
            declarer=self.declarer,
            talon=talon,
            take=self.take,
            lay_away=self.lay_away if seat == self.declarer else None,
            announcements=tuple(self.announcements),
            seat_view=seat_view,
        )

    def decision(self) -> Decision:
        """The decision to take now."""
        kind = self.phase
        if kind == "over":
            raise GameError("the game is over")
        seat, options = self._options()
        return Decision(kind, seat, options, self.knowledge(seat))

    def _options(self) -> tuple[Seat, tuple[Option, ...]]:
        if self.phase == "bid":
            assert self.auction is not None
            return self.auction.turn, tuple(auction_calls(self.auction))
        assert self.declarer is not None and self.contract is not None
        declarer = self.declarer
        if self.phase in ("announce", "kontra"):
            seat = self._step_seat()
            return seat, (DONE, *self._step_options(seat))
        if self.phase == "take":
            return declarer, talon_choices(self.contract, self.dealt.talon)
        if self.phase == "lay_away":
            assert self.take is not None
            cards = self.dealt.held(declarer) | mask_of(self.take)
            return declarer, tuple(lay_aways(cards, len(self.take), self.rules.discard))
        assert self.position is not None
        return self.position.turn, tuple(hand_cards(mask_of(self.position.legal_moves)))

    def _step_seat(self) -> Seat:
        assert self.declarer is not None
        return self.declarer if ROUND_STEPS[self.step][1] == DECLARER_STEP else 1 - self.declarer

    def _step_options(self, seat: Seat) -> list[str]:
        """The options of the round's step under way besides ``done``."""
        if ROUND_STEPS[self.step][0] == "announce":
            return self._announceable(seat)
        return (
            [a.what for a in self.announcements if a.by != seat and a.when == self.round and not a.kontra]
            if self.rules.kontra
            else []
        )

    def _announceable(self, seat: Seat) -> list[str]:
        """The bonuses ``seat`` may still announce in this round (none
        where the rule options forbid it)."""
        assert self.declarer is not None and self.contract is not None
        made = {a.what for a in self.announcements}
        found = []
        for what in ANNOUNCEMENTS:
            if what in made:
                continue
            candidate = [*self.announcements, Announcement(seat, what, self.round)]
            try:
                check_announcements(candidate, self.contract, self.declarer, self.rules)
            except AnnouncementError:
                continue
            found.append(what)
        return found

    def _open_round(self) -> None:
        """Start the announcement round ``self.round`` at its first step
        that has an option besides ``done``; with none, go on."""
        self.step = -1
        self._next_step()

    def _next_step(self) -> None:
        """Go to the round's next step that asks something, or past the round."""
        for step in range(self.step + 1, len(ROUND_STEPS)):
            self.step = step
            if self._step_options(self._step_seat()):
                self.phase = ROUND_STEPS[step][0]
                return
        if self.round == "before":
            self.phase = "take"
        else:
            # After the talon, or a Solo's only round: the play starts.
            self._start_play()

    def choose(self, choice: int) -> Move:
        """Take option ``choice`` (its index) of the current decision."""
        seat, options = self._options()
        if not 0 <= choice < len(options):
            raise ChoiceError(choice, len(options), self.phase)
        option = options[choice]
        move = Move(self.phase, seat, choice, option)
        self.moves.append(move)
        getattr(self, f"_{self.phase}")(option)
        return move

    def _bid(self, call: Option) -> None:
        assert isinstance(call, str) and self.auction is not None
        self.calls.append(call)
        after = after_call(self.auction, call)
        if isinstance(after, AuctionState):
            self.auction = after
            return
        self.auction = None
        if after is None:
            self.phase = "over"
            return
        self.declarer, self.contract = after[0], CONTRACTS[after[1]]
        self.round = None if self.contract == "solo" else "before"
        self._open_round()

    def _announce(self, what: Option) -> None:
        assert isinstance(what, str)
        if what == DONE:
            self._next_step()
            return
        self.announcements.append(Announcement(self._step_seat(), what, self.round))
        if not self._step_options(self._step_seat()):
            self._next_step()

    def _kontra(self, what: Option) -> None:
        assert isinstance(what, str)
        if what == DONE:
            self._next_step()
            return
        index = next(i for i, a in enumerate(self.announcements) if a.what == what)
        self.announcements[index] = replace(self.announcements[index], kontra=True)
        if not self._step_options(self._step_seat()):
            self._next_step()

    def _take(self, take: Option) -> None:
        assert isinstance(take, tuple)
        self.take = take
        if take:
            self.phase = "lay_away"
        else:
            self.lay_away = 0
            self.round = "after"
            self._open_round()

    def _lay_away(self, laid: Option) -> None:
        assert isinstance(laid, int)
        self.lay_away = laid
        self.round = "after"
        self._open_round()

    def _exchange(self) -> Exchange:
        """The declarer's exchange: none in a Solo."""
        return Exchange(self.take or (), self.lay_away or 0)

    def _start_play(self) -> None:
        assert self.declarer is not None and self.contract is not None
        self._deal = self.dealt.play_deal(self.contract, self.declarer, self._exchange(), variant=self.rules.discard)
        self.position = self._deal.position()
        self.phase = "play"

    def _play(self, card: Option) -> None:
        assert isinstance(card, int) and self.position is not None
        self.position.push(card)
        if self.position.is_over():
            self.phase = "over"

    def to_json(self) -> dict[str, object]:
        """The game's record: every decision taken, each seat's game points
        and the settlement's items (null when both passed or the game
        did not end)."""
        settlement = self.settlement
        return {
            "calls": list(self.calls),
            "declarer": None if self.declarer is None else seat_name(self.declarer),
            "contract": self.contract,
            "take": None if self.take is None else [card_name(c) for c in self.take],
            "lay_away": None if self.lay_away is None else hand_names(self.lay_away),
            "announcements": [announcement_to_json(a) for a in self.announcements],
            "play": [card_name(c) for c in self.position.move_stack] if self.position is not None else [],
            "moves": [m.to_json() for m in self.moves],
            "totals": self.totals_json(),
            "settlement": None if settlement is None else [item.to_json() for item in settlement.items],
        }


__all__ = [
    "DECLARER_STEP",
    "DEFENDER_STEP",
    "DONE",
    "KINDS",
    "ROUND_STEPS",
    "ChoiceError",
    "Decision",
    "Game",
    "GameError",
    "Knowledge",
    "Move",
    "Option",
    "option_json",
]
