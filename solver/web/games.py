"""Play a game against kosolve in the browser: the games in progress of
``kosolve serve`` and the API's answer for them (``POST /api/v1/game``,
docs/web.md).

The user takes a seat, a bot (:mod:`kosolve.play.bots`, ``pimc`` by
default) the other.  Each answer says what the user may see and nothing
more: his own decision with his knowledge (the seat view of
:mod:`kosolve.play.game`), the calls, the announcements, the exposed talon
and the cards played, how many cards the bot holds, and the bot's
decisions as his seat sees them (:meth:`~kosolve.play.game.Move.seen_by`:
of its lay-away only the tarocks that go face up).  A game's id is drawn
at random and its seed is shown only at the end, since the seed deals the
bot's hand again.  At the end both hands are shown, the seed, the
settlement, and the review of the game by what each player knew and double
dummy (:func:`~kosolve.review.judging.review`): every decision before the
play (the bid, the announcements and Kontras, the talon choice, the
lay-away) and every card.

The rules of a game are the server's, or those the new game's request
sets (``new.rules``: the defender's announcements and Kontra, the other
rule options); each answer says them (``rules``).  The options of an
announcement or a Kontra come with the game points each puts at stake
(``values``): the announcement's value in the scoring table for this
contract and round (:mod:`kosolve.model.scoring`), doubled for a Kontra.

A choice names the decision it answers by the number of moves of the
answer that showed it (:meth:`GameTable.choose`), and is refused on any
other: the same choice sent twice is applied once, and one whose answer a
web server gave up on past its time limit (the bot still thinking, or the
review) is not applied again to a decision the user never saw; he asks
for the game as it stands (:meth:`GameTable.resume`).  Such a server
passes ``delivered=False`` and calls :meth:`GameTable.delivered` with the
answers it gives: a game is dropped once its end is given, and one whose
end came too late stays to be asked for.
"""

from __future__ import annotations

import random
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from typing import Final

from kosolve.analysis.report import Analyser
from kosolve.dealing import MAX_SEED, deal_as_dealt
from kosolve.model.announcements import Announcement, announcement_to_json
from kosolve.model.cards import Hand, card_name, hand_names, mask_of, thirds_of
from kosolve.model.dealt import Dealt
from kosolve.model.dealt_file import DealtFile, dealt_to_json
from kosolve.model.game import (
    DEFAULT_RULES,
    GAME_VALUES,
    SEAT_NAMES,
    SEATS,
    Rules,
    Seat,
    seat_name,
    trick_to_json,
)
from kosolve.model.scoring import DEFAULT_TABLE, ScoringTable
from kosolve.play.bots import BOTS, make_bot
from kosolve.play.game import DONE, ChoiceError, Decision, Game, option_json
from kosolve.play.player import Bot, ask
from kosolve.review.judging import review

GAMES_KEPT: Final = 32
"""Games in progress a server keeps; the oldest goes first."""
GAMES_PER_CLIENT: Final = 4
"""Games in progress a server keeps for one client address; its oldest goes
first, so that one client cannot push out the games of the others."""
DEFAULT_BOT: Final = "pimc"
REVIEW_SAMPLES: Final = 50
"""Worlds a card of the review at a game's end: a few seconds on one core."""
REVIEW_DECISION_SAMPLES: Final = 4
"""Worlds a group of the decisions before the play is valued in at a
game's end (docs/web.md): each world asks the exchange table's rows, about
0.2 s of one core, so that the review's default of 64 would take half a
minute; 4 add 2 s to 3 s.  The end's ``game_file`` reviews again with more."""
ID_BYTES: Final = 16
"""Random bytes of a game's id: an id cannot be guessed."""
NOTHING_PLAYED: Final = "both passed: nothing was played"
CUT_SHORT: Final = "the review was cut short: it ran past the server's time limit"
"""Why an end has no review when its answer was given up on: the review
stops there, and the settlement is shown without it."""


class GameRequestError(ValueError):
    """A game request the server cannot answer: the message names the field."""


@dataclass
class _Table:
    """One game in progress: the game (with its rules), the user's seat,
    the bot and its spec, the seed of the deal, the client's address
    (None: no client's bound), and its end once worked out."""

    game: Game
    seat: Seat
    bot: Bot
    spec: str
    seed: int
    client: str | None
    end: dict[str, object] | None = None


class GameTable:
    """The games in progress of one server, by id; their bots that search
    share ``analyser`` (its tables and their memory bound), one search at a
    time: the server's solver thread runs every game request."""

    def __init__(self, rules: Rules = DEFAULT_RULES, analyser: Analyser | None = None) -> None:
        self.rules = rules
        self.analyser = Analyser() if analyser is None else analyser
        self._games: OrderedDict[str, _Table] = OrderedDict()
        # Held for the bookkeeping only, never for a search: delivered() is
        # called from the web server's event loop while a search runs.
        self._books = threading.Lock()

    def new(
        self, seat: Seat, spec: str, seed: int | None, client: str | None = None, rules: Rules | None = None
    ) -> dict[str, object]:
        """A new game, the user in ``seat`` against the bot ``spec``, from
        ``client`` (an address: at most :data:`GAMES_PER_CLIENT` games each;
        None for none), played by ``rules`` (the table's by default)."""
        if spec not in BOTS:
            raise GameRequestError(f"request: bot: {spec!r} is not one of {', '.join(BOTS)}")
        rules = self.rules if rules is None else rules
        # Not the random module's generator: its state shows through the seeds it gave (/api/v1/random).
        seed = secrets.randbelow(MAX_SEED) if seed is None else seed
        bot = make_bot(spec, rules, self.analyser)
        return self.open(seat, deal_as_dealt(random.Random(seed)), bot, spec, seed, client, rules)

    def open(
        self,
        seat: Seat,
        dealt: Dealt,
        bot: Bot,
        spec: str,
        seed: int,
        client: str | None = None,
        rules: Rules | None = None,
    ) -> dict[str, object]:
        """A new game of ``dealt``, the user in ``seat`` against ``bot``
        (named ``spec`` in the answers; ``seed`` starts it and is shown at
        the end), played by ``rules`` (the table's by default): :meth:`new`
        with its own deal and bot.  Its first answer has the user's first
        decision, never the end."""
        bot.start(seed, 1 - seat)
        key = secrets.token_urlsafe(ID_BYTES)
        table = _Table(Game(dealt, self.rules if rules is None else rules), seat, bot, spec, seed, client)
        with self._books:
            self._games[key] = table
            if client is not None:
                mine = [other for other, kept in self._games.items() if kept.client == client]
                for other in mine[: max(0, len(mine) - GAMES_PER_CLIENT)]:
                    del self._games[other]
            while len(self._games) > GAMES_KEPT:
                self._games.popitem(last=False)
        return self._answer(key, table, None, delivered=True)

    def choose(
        self,
        key: str,
        choice: int,
        moves: int,
        progress: Callable[[int, int], None] | None = None,
        *,
        delivered: bool = True,
    ) -> dict[str, object]:
        """The user's ``choice`` in game ``key`` on the decision of the
        answer he got with ``moves`` moves, refused unless the game has
        that many still; ``progress`` follows the review at the end."""
        table = self._table(key)
        game = table.game
        if moves != len(game.moves):
            raise GameRequestError(
                'request: game: it has moved on since the last answer you got: ask for it with {"game": ID} alone'
            )
        if game.over or game.decision().seat != table.seat:
            raise GameRequestError("request: game: it is not your turn")
        try:
            move = game.choose(choice)
        except ChoiceError as error:
            raise GameRequestError(f"request: choice: {choice} is not one of the {error.options} options") from None
        table.bot.observe(move)
        return self._answer(key, table, progress, delivered)

    def resume(
        self, key: str, progress: Callable[[int, int], None] | None = None, *, delivered: bool = True
    ) -> dict[str, object]:
        """Game ``key`` as it stands: the answer of a move that was given up
        on (the bot's decisions finished first, the end with its review)."""
        return self._answer(key, self._table(key), progress, delivered)

    def delivered(self, answer: Mapping[str, object]) -> None:
        """The user got ``answer`` (one of this table's): a game whose end
        he got is dropped."""
        if answer["end"] is None:
            return
        key = answer["game"]
        assert isinstance(key, str)
        with self._books:
            self._games.pop(key, None)

    def _table(self, key: str) -> _Table:
        with self._books:
            table = self._games.get(key)
        if table is None:
            raise GameRequestError(f"request: game: no game {key!r} in progress (a new one starts it)")
        return table

    def _answer(
        self, key: str, table: _Table, progress: Callable[[int, int], None] | None, delivered: bool
    ) -> dict[str, object]:
        game, user = table.game, table.seat
        decision = None
        while not game.over:
            decision = game.decision()
            if decision.seat == user:
                break
            ask(table.bot, decision, game)
            decision = None
        answer: dict[str, object] = {
            "game": key,
            "seat": seat_name(user),
            "bot": table.spec,
            "phase": game.phase,
            "calls": list(game.calls),
            "contract": game.contract,
            "declarer": None if game.declarer is None else seat_name(game.declarer),
            "rules": asdict(game.rules),
            "announcements": [
                {**announcement_to_json(a), "value": announced_value(game.contract, a) * (2 if a.kontra else 1)}
                for a in game.announcements
            ],
            "moves": [move.seen_by(user) for move in game.moves],
            "tricks": _tricks(game),
            "bot_cards": _cards_left(game, 1 - user),
            # What the table shows of the user's knowledge, drawn as cards (docs/web.md).
            "hand": hand_names(_hand(game, user)),
            "talon": _talon(game, user),
            "taken": None if game.take is None else [card_name(c) for c in game.take],
            "counted": _counted(game),
            "decision": None,
            "end": None,
        }
        if decision is not None:
            shown: dict[str, object] = {
                "decision": decision.kind,
                "view": decision.knowledge.to_json(),
                "legal": [option_json(decision.kind, option) for option in decision.options],
            }
            if decision.kind in ("announce", "kontra"):
                shown["values"] = stakes(game, decision)
            answer["decision"] = shown
        else:
            answer["end"] = self._end(table, progress)
        if delivered:
            self.delivered(answer)
        return answer

    def _end(self, table: _Table, progress: Callable[[int, int], None] | None) -> dict[str, object]:
        """The game's end, worked out once: the seed, the deal shown, the
        settlement, the review of the user's play (None when both passed,
        or when it was cut short, ``review_why`` saying which)."""
        if table.end is not None:
            return table.end
        game = table.game
        settlement = game.settlement
        file = game.dealt_file
        played = file is not None and bool(file.play)
        deal, position = game.deal, game.position
        piles = None
        if deal is not None and deal.piles is not None and position is not None:
            piles = {
                seat_name(seat): {
                    "cards": hand_names(deal.piles[seat]),
                    "thirds": thirds_of(deal.piles[seat]) + position.trick_thirds[seat],
                }
                for seat in SEATS
            }
        table.end = {
            "seed": table.seed,
            "deal": dealt_to_json(DealtFile(game.dealt)),
            "hands": {name: hand_names(game.dealt.held(seat)) for seat, name in enumerate(SEAT_NAMES)},
            # Both hands as played from trick 1 (the declarer's after his exchange) and each pile, turned up.
            "held": None if deal is None else {seat_name(seat): hand_names(deal.hands[seat]) for seat in SEATS},
            "piles": piles,
            "result": None
            if settlement is None
            else {
                "contract": settlement.contract,
                "declarer": seat_name(settlement.declarer),
                "thirds": settlement.declarer_thirds,
                "won": settlement.declarer_thirds >= game.rules.win_thirds,
            },
            "totals": game.totals_json(),
            "items": None if settlement is None else [item.to_json() for item in settlement.items],
            # The game as a deal as dealt, to save and review with more worlds (kosolve review).
            "game_file": None if file is None else dealt_to_json(file),
            "review": None,
            # Kept as it is when the review does not finish: the settlement is shown all the same.
            "review_why": CUT_SHORT if played else NOTHING_PLAYED,
        }
        if file is not None and played:
            judged = review(
                file,
                samples=REVIEW_SAMPLES,
                seed=table.seed,
                jobs=1,
                rules=game.rules,
                tt_mb=self.analyser.tt_mb,
                progress=progress,
                before_play=True,
                decision_samples=REVIEW_DECISION_SAMPLES,
            )
            table.end = {**table.end, "review": judged.to_json(), "review_why": None}
        return table.end


def announced_value(contract: str | None, announcement: Announcement, table: ScoringTable = DEFAULT_TABLE) -> int:
    """The game points ``announcement`` is worth in ``contract``, made or
    failed, before any Kontra: its row of the scoring table for the
    contract and its timing, an announced Valat G × 8 (docs/rules.md §6).

    >>> announced_value("dreiblatt", Announcement(0, "pagat", "before"))
    12
    >>> announced_value("solo", Announcement(1, "valat"))
    96
    """
    assert contract is not None
    if announcement.what == "valat":
        return GAME_VALUES[contract] * table.valat_announced
    return table.row(announcement.what).announced(contract, announcement.when)


def stakes(game: Game, decision: Decision) -> list[int | None]:
    """The game points each option of an ``announce`` or ``kontra``
    decision puts at stake: None for ``done``; an announcement's value in
    this round; a Kontra's the doubled value of the announcement it doubles."""
    values: list[int | None] = []
    for option in decision.options:
        if option == DONE:
            values.append(None)
        elif decision.kind == "announce":
            assert isinstance(option, str)
            values.append(announced_value(game.contract, Announcement(decision.seat, option, game.round)))
        else:
            doubled = next(a for a in game.announcements if a.what == option)
            values.append(2 * announced_value(game.contract, doubled))
    return values


def _tricks(game: Game) -> list[dict[str, object]]:
    """The tricks played, the one on the table last."""
    return [] if game.position is None else [trick_to_json(trick) for trick in game.position.tricks]


def _hand(game: Game, seat: Seat) -> Hand:
    """The cards ``seat`` holds now: during the play his hand; before it
    his 16 cards, as declarer with the talon cards he took and without
    those he laid away."""
    if game.position is not None:
        return game.position.hands[seat]
    held = game.dealt.held(seat)
    if seat != game.declarer or game.take is None:
        return held
    return (held | mask_of(game.take)) & ~(game.lay_away or 0)


def _talon(game: Game, seat: Seat) -> list[str] | None:
    """The talon top first as ``seat`` sees it: turned up from the talon
    choice on (never in a Solo) and at the end; None while face down."""
    talon = game.dealt.talon if game.over else game.knowledge(seat).talon
    return None if talon is None else [card_name(c) for c in talon]


def _counted(game: Game) -> dict[str, dict[str, int]]:
    """Each seat's tricks won so far and the card points in them (thirds),
    which both players see; the piles count at the end (``end.piles``)."""
    position = game.position
    return {
        seat_name(seat): {
            "tricks": 0 if position is None else position.tricks_won[seat],
            "thirds": 0 if position is None else position.trick_thirds[seat],
        }
        for seat in SEATS
    }


def _cards_left(game: Game, seat: Seat) -> int:
    if game.position is None:
        return game.dealt.held(seat).bit_count()
    return game.position.hands[seat].bit_count()


__all__ = [
    "DEFAULT_BOT",
    "GAMES_KEPT",
    "GAMES_PER_CLIENT",
    "GameRequestError",
    "GameTable",
    "announced_value",
    "stakes",
]
