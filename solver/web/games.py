"""Play a game against kosolve in the browser: the games in progress of
``kosolve serve`` and the API's answer for them (``POST /api/v1/game``,
docs/web.md).

The user takes a seat, a bot (:mod:`kosolve.play.bots`, ``pimc`` by
default) the other.  Each answer says what the user may see and nothing
more: his own decision with his knowledge (the seat view of
:mod:`kosolve.play.game`), the calls, the announcements, the exposed talon
and the cards played, how many cards the bot holds, and the bot's
decisions without the one the table does not show (its lay-away).  At the
end both hands are shown, the settlement, and the review of the user's
play by what he knew and double dummy (:func:`~kosolve.review.judging.review`).
"""

from __future__ import annotations

import itertools
import random
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from kosolve.model.cards import card_name, hand_names
from kosolve.model.dealt_file import DealtFile, dealt_to_json
from kosolve.model.game import DEFAULT_RULES, SEAT_NAMES, Rules, Seat, seat_name
from kosolve.play.bots import BOTS, Bot, make_bot
from kosolve.play.game import Game, Move, option_json
from kosolve.review.judging import review
from kosolve.tools.dealing import deal_as_dealt

GAMES_KEPT: Final = 32
"""Games in progress a server keeps; the oldest goes first."""
DEFAULT_BOT: Final = "pimc"
REVIEW_SAMPLES: Final = 50
"""Worlds a card of the review at a game's end: a few seconds on one core."""
MAX_SEED: Final = 2**63
"""Seeds of the games' deals are below this."""


class GameRequestError(ValueError):
    """A game request the server cannot answer: the message names the field."""


@dataclass
class _Table:
    """One game in progress: the game, the user's seat, the bot and its spec."""

    game: Game
    seat: Seat
    bot: Bot
    spec: str
    seed: int


def _move_json(move: Move, user: Seat) -> dict[str, object]:
    """A decision taken, as the user may see it: the bot's lay-away hidden."""
    data = move.to_json()
    if move.seat != user and move.kind == "lay_away":
        data["option"] = None
    return data


class GameTable:
    """The games in progress of one server, by id."""

    def __init__(self, rules: Rules = DEFAULT_RULES) -> None:
        self.rules = rules
        self._games: OrderedDict[str, _Table] = OrderedDict()
        self._ids = itertools.count(1)

    def new(self, seat: Seat, spec: str, seed: int | None) -> dict[str, object]:
        """A new game, the user in ``seat`` against the bot ``spec``."""
        if spec not in BOTS:
            raise GameRequestError(f"request: bot: {spec!r} is not one of {', '.join(BOTS)}")
        seed = random.randrange(MAX_SEED) if seed is None else seed
        game = Game(deal_as_dealt(random.Random(seed)), self.rules)
        bot = make_bot(spec, self.rules)
        bot.start(seed, 1 - seat)
        key = f"g{next(self._ids)}"
        self._games[key] = _Table(game, seat, bot, spec, seed)
        while len(self._games) > GAMES_KEPT:
            self._games.popitem(last=False)
        return self._answer(key)

    def choose(self, key: str, choice: int, progress: Callable[[int, int], None] | None = None) -> dict[str, object]:
        """The user's ``choice`` in game ``key``."""
        table = self._games.get(key)
        if table is None:
            raise GameRequestError(f"request: game: no game {key!r} in progress (a new one starts it)")
        game = table.game
        if game.over or game.decision().seat != table.seat:
            raise GameRequestError("request: game: it is not your turn")
        options = game.decision().options
        if not 0 <= choice < len(options):
            raise GameRequestError(f"request: choice: {choice} is not one of the {len(options)} options")
        table.bot.observe(game.choose(choice))
        return self._answer(key, progress)

    def _answer(self, key: str, progress: Callable[[int, int], None] | None = None) -> dict[str, object]:
        table = self._games[key]
        game, user = table.game, table.seat
        decision = None
        while not game.over:
            decision = game.decision()
            if decision.seat == user:
                break
            game.choose(table.bot.decide(decision, game if table.bot.omniscient else None))
            decision = None
        answer: dict[str, object] = {
            "game": key,
            "seed": table.seed,
            "seat": seat_name(user),
            "bot": table.spec,
            "phase": game.phase,
            "calls": list(game.calls),
            "contract": game.contract,
            "declarer": None if game.declarer is None else seat_name(game.declarer),
            "moves": [_move_json(move, user) for move in game.moves],
            "tricks": _tricks(game),
            "bot_cards": _cards_left(game, 1 - user),
            "decision": None,
            "end": None,
        }
        if decision is not None:
            answer["decision"] = {
                "decision": decision.kind,
                "view": decision.knowledge.to_json(),
                "legal": [option_json(decision.kind, option) for option in decision.options],
            }
            return answer
        answer["end"] = self._end(table, progress)
        self._games.pop(key, None)
        return answer

    def _end(self, table: _Table, progress: Callable[[int, int], None] | None) -> dict[str, object]:
        """The game's end: the deal shown, the settlement, the review of the
        user's play (None when both passed)."""
        game = table.game
        settlement = game.settlement
        file = game.dealt_file
        judged = None
        if file is not None and file.play:
            judged = review(file, samples=REVIEW_SAMPLES, seed=table.seed, jobs=1, rules=self.rules, progress=progress)
        return {
            "deal": dealt_to_json(DealtFile(game.dealt)),
            "hands": {name: hand_names(game.dealt.held(seat)) for seat, name in enumerate(SEAT_NAMES)},
            "totals": game.totals_json(),
            "items": None if settlement is None else [item.to_json() for item in settlement.items],
            "review": None if judged is None else judged.to_json(),
        }


def _tricks(game: Game) -> list[dict[str, object]]:
    """The tricks played, the one on the table last."""
    if game.position is None:
        return []
    return [
        {
            "number": trick.number,
            "leader": seat_name(trick.leader),
            "cards": [card_name(card) for card in trick.cards],
            "winner": None if trick.winner is None else seat_name(trick.winner),
        }
        for trick in game.position.tricks
    ]


def _cards_left(game: Game, seat: Seat) -> int:
    if game.position is None:
        return game.dealt.held(seat).bit_count()
    return game.position.hands[seat].bit_count()


__all__ = ["DEFAULT_BOT", "GAMES_KEPT", "GameRequestError", "GameTable"]
