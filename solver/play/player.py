"""Who takes a game's decisions, and the one way to ask: the :class:`Bot`
interface every player implements (the bundled bots of
:mod:`~kosolve.play.bots`, a program over the protocol of
:mod:`~kosolve.play.protocol`), and :func:`ask`, which the arena, the web
game and anything else that lets a bot play goes through.

A bot decides from its seat's :class:`~kosolve.play.game.Knowledge`
alone; only an :attr:`~Bot.omniscient` bot is also shown the game.  Its
answer is the index of an option, checked in one place
(:meth:`~kosolve.play.game.Game.choose`); a choice out of range, or a
broken protocol, forfeits the game (:class:`Forfeit`).

>>> import random
>>> from kosolve.dealing import deal_as_dealt
>>> from kosolve.play.game import Game
>>> class First(Bot):
...     def decide(self, decision, game=None):
...         return 0
>>> game = Game(deal_as_dealt(random.Random(3)))
>>> ask(First(), game.decision(), game).option
'pass'
"""

from __future__ import annotations

from typing import ClassVar

from kosolve.model.game import Seat
from kosolve.play.game import ChoiceError, Decision, Game, Move


class BotSpecError(ValueError):
    """A bot spec that names no bot, or an option it does not take."""


class Forfeit(Exception):
    """A bot that lost its game by breaking the rules of play (a choice out
    of range) or the protocol: ``reason`` says how."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Bot:
    """The interface every bot implements; subclass it for one of your own."""

    name: str = "bot"
    omniscient: ClassVar[bool] = False
    """Whether the bot is shown the whole game (the ``dd`` bot only)."""

    def start(self, seed: int, seat: Seat = 0) -> None:
        """A new game starts, the bot in ``seat``; ``seed`` makes its
        choices repeatable."""

    def decide(self, decision: Decision, game: Game | None = None) -> int:
        """The index of the option it takes; ``game`` only for an omniscient bot."""
        raise NotImplementedError

    def refused(self, error: ChoiceError) -> Forfeit:
        """The forfeit of a choice that is not one of the options, its
        reason naming the choice."""
        return Forfeit(f"choice {error.choice} of {error.options} options")

    def observe(self, move: Move) -> None:
        """The other seat took a decision."""

    def end(self, totals: dict[str, int] | None) -> None:
        """The game is over: each seat's game points (None when both passed)."""

    def close(self) -> None:
        """The match is over."""


def ask(bot: Bot, decision: Decision, game: Game) -> Move:
    """Ask ``bot`` for ``decision``, the one ``game`` waits on, and take its
    choice: the move, in the game's record.  The game is shown to an
    omniscient bot alone; a choice that is not one of the options raises
    the bot's :class:`Forfeit` (:meth:`Bot.refused`), the game unchanged."""
    choice = bot.decide(decision, game if bot.omniscient else None)
    try:
        return game.choose(choice)
    except ChoiceError as error:
        raise bot.refused(error) from None


__all__ = ["Bot", "BotSpecError", "Forfeit", "ask"]
