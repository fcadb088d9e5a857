"""Bots: players that take every decision of a game (:mod:`kosolve.play.game`)
from what their seat knows.

A bot is a :class:`~kosolve.play.player.Bot`: ``start`` at each game
with its seed, ``decide`` for each decision (the index of its option),
``close`` at the end of a match; :func:`~kosolve.play.player.ask` asks it.
Four come with kosolve (docs/bots.md), named by a spec, with options after
a colon, and ``exec:COMMAND ARGS`` names a program that speaks the
protocol (:mod:`~kosolve.play.protocol`); :func:`make_bot` makes any:

- ``random``: uniform over the legal options, from its seed;
- ``heuristic``: a club player's rules of thumb;
- ``pimc``: perfect-information Monte Carlo: it deals the unseen cards in
  ways its view allows, solves each world exactly and takes the best mean
  (``pimc:samples=10,auction=6``, the defaults);
- ``dd``: sees every card and plays double dummy: the ceiling, never a fair
  opponent.

A bot decides from :class:`~kosolve.play.game.Knowledge` alone; only a bot
whose ``omniscient`` is true is also shown the game.

>>> import random
>>> from kosolve.play.game import Game
>>> from kosolve.play.player import ask
>>> from kosolve.dealing import deal_as_dealt
>>> game, bot = Game(deal_as_dealt(random.Random(3))), make_bot("heuristic")
>>> bot.start(7)
>>> ask(bot, game.decision(), game).option
'dreiblatt'
"""

from __future__ import annotations

import collections
import random
from collections.abc import Callable, Sequence
from typing import Final

from kosolve.analysis.exchange import ExchangeRow, declarer_rows
from kosolve.analysis.par import par
from kosolve.analysis.report import Analyser
from kosolve.analysis.solving import solve
from kosolve.dealing import bid, choose_exchange, hand_strength
from kosolve.model.auction import HOLD, PASS
from kosolve.model.cards import CARD_VALUES, KINGS, PAGAT, SUIT_MASKS, TAROCK, Card, Hand, mask_of, suit_of
from kosolve.model.dealt import Dealt
from kosolve.model.game import CONTRACTS, DEFAULT_RULES, Rules, Seat, reply_wins
from kosolve.model.scoring import game_item
from kosolve.model.view import SeatView
from kosolve.play.game import Decision, Game, Knowledge, Option
from kosolve.play.player import Bot, BotSpecError
from kosolve.play.protocol import DEFAULT_MOVE_TIME, EXEC_PREFIX, ExecBot
from kosolve.sampling.worlds import random_worlds, sample_worlds

LEAST_STRENGTH: Final = 12.0
"""The heuristic bot passes with a hand weaker than this (:func:`~kosolve.dealing.hand_strength`)."""


class RandomBot(Bot):
    """Uniform over the legal options, from its seed."""

    name = "random"

    def __init__(self) -> None:
        self.rng = random.Random(0)

    def start(self, seed: int, seat: Seat = 0) -> None:
        self.rng = random.Random(seed)

    def decide(self, decision: Decision, game: Game | None = None) -> int:
        return self.rng.randrange(len(decision.options))


class KindBot(Bot):
    """A bot with a method a kind of decision
    (:data:`~kosolve.play.game.KINDS`), each giving the option it takes:
    the one place the bundled bots branch on a decision's kind.  It
    announces nothing (``done``)."""

    def decide(self, decision: Decision, game: Game | None = None) -> int:
        choose = {
            "bid": self._bid,
            "announce": self._announce,
            "kontra": self._kontra,
            "take": self._take,
            "lay_away": self._lay_away,
            "play": self._play,
        }[decision.kind]
        return _index(decision.options, choose(decision, game))

    def _bid(self, decision: Decision, game: Game | None) -> Option:
        raise NotImplementedError

    def _announce(self, decision: Decision, game: Game | None) -> Option:
        return decision.options[0]

    def _kontra(self, decision: Decision, game: Game | None) -> Option:
        return decision.options[0]

    def _take(self, decision: Decision, game: Game | None) -> Option:
        raise NotImplementedError

    def _lay_away(self, decision: Decision, game: Game | None) -> Option:
        raise NotImplementedError

    def _play(self, decision: Decision, game: Game | None) -> Option:
        raise NotImplementedError


class SeatBot(KindBot):
    """A bot that decides from its seat in three parts: its call
    (:meth:`_call`), its talon choice with the lay-away it plans for it
    (:meth:`_exchange`) and its card (:meth:`_card`); it announces nothing."""

    def __init__(self) -> None:
        self._planned: Hand | None = None

    def start(self, seed: int, seat: Seat = 0) -> None:
        self._planned = None

    def _bid(self, decision: Decision, game: Game | None) -> Option:
        return self._call(decision.knowledge, decision.options)

    def _take(self, decision: Decision, game: Game | None) -> Option:
        take, self._planned = self._exchange(decision.knowledge, decision.options)
        return take

    def _lay_away(self, decision: Decision, game: Game | None) -> Option:
        planned, options = self._planned, decision.options
        return planned if planned is not None and planned in options else options[0]

    def _play(self, decision: Decision, game: Game | None) -> Option:
        view = decision.knowledge.seat_view
        assert view is not None
        return self._card(view, [c for c in decision.options if isinstance(c, int)])

    def _call(self, knows: Knowledge, options: Sequence[object]) -> str:
        raise NotImplementedError

    def _exchange(self, knows: Knowledge, options: Sequence[object]) -> tuple[tuple[Card, ...], Hand]:
        raise NotImplementedError

    def _card(self, view: SeatView, legal: list[Card]) -> Card:
        raise NotImplementedError


class HeuristicBot(SeatBot):
    """A club player's rules of thumb (docs/bots.md, "heuristic")."""

    name = "heuristic"

    def __init__(self) -> None:
        super().__init__()
        self.rng = random.Random(0)

    def start(self, seed: int, seat: Seat = 0) -> None:
        super().start(seed, seat)
        self.rng = random.Random(seed)

    def _exchange(self, knows: Knowledge, options: Sequence[object]) -> tuple[tuple[Card, ...], Hand]:
        """The realistic dealer's exchange (:func:`~kosolve.dealing.choose_exchange`)."""
        assert knows.contract is not None and knows.talon is not None
        exchange = choose_exchange(knows.auction.hand, knows.contract, knows.talon, self.rng)
        return exchange.take, exchange.lay_away

    def _call(self, knows: Knowledge, options: Sequence[object]) -> str:
        """Bid up to the contract the hand's strength is worth, no higher
        than needed; hold when that contract is standing; else pass."""
        strength = hand_strength(knows.auction.hand)
        if strength < LEAST_STRENGTH:
            return PASS
        limit = CONTRACTS.index(bid(strength))
        if HOLD in options and CONTRACTS.index(_standing(knows.calls)) <= limit:
            return HOLD
        bids = [o for o in options if o in CONTRACTS and CONTRACTS.index(str(o)) <= limit]
        return str(bids[0]) if bids else PASS

    def _card(self, view: SeatView, legal: list[Card]) -> Card:
        """Lead: a king, else the lowest card of his longest plain suit, else
        his lowest tarock (the Pagat kept back).  Follow: take a trick worth
        taking with the cheapest card that wins it, else throw the cheapest
        card (the Pagat last)."""
        hand = mask_of(legal)
        tricks = view.tricks
        on_table = tricks[-1] if tricks and tricks[-1].winner is None else None

        def cheap(card: Card) -> tuple[int, int, int]:
            return (card == PAGAT, CARD_VALUES[card], card)

        if on_table is None:
            kings = [c for c in legal if (1 << c) & KINGS]
            if kings:
                return kings[0]
            plain = [s for s in range(TAROCK) if hand & SUIT_MASKS[s]]
            if plain:
                longest = max(plain, key=lambda s: ((hand & SUIT_MASKS[s]).bit_count(), -s))
                return min((c for c in legal if suit_of(c) == longest), key=cheap)
            return min(legal, key=cheap)
        led = on_table.cards[0]
        winners = [c for c in legal if reply_wins(led, c)]
        if winners and (CARD_VALUES[led] >= 2 or suit_of(led) != TAROCK):
            return min(winners, key=cheap)
        return min(legal, key=cheap)


def _standing(calls: Sequence[str]) -> str:
    """The contract standing after ``calls``: the last one named."""
    return [call for call in calls if call in CONTRACTS][-1]


def _index(options: Sequence[object], chosen: object) -> int:
    return list(options).index(chosen)


def _game_value(contract: str, thirds: int, win_thirds: int) -> int:
    """The game item a final number of thirds gives the declarer."""
    return game_item(contract, thirds >= win_thirds, False)


def _best_card(moves: Sequence[tuple[Card, float, float]], declarer_moves: bool) -> Card:
    """Of ``(card, game points, thirds)`` means, the best for the mover:
    the game points first, then the thirds, then the hand's order."""
    sign = 1 if declarer_moves else -1
    return max(moves, key=lambda m: (sign * m[1], sign * m[2], -m[0]))[0]


class Searching:
    """What a bot that searches holds: the ``analyser`` whose tables it
    solves with, the caller's to share (a match's worker, a server), or its
    own, made at its first search."""

    analyser: Analyser | None

    def searcher(self) -> Analyser:
        if self.analyser is None:
            self.analyser = Analyser()
        return self.analyser


class PimcBot(Searching, SeatBot):
    """Perfect-information Monte Carlo (docs/bots.md, "pimc"): ``samples``
    worlds a card, ``auction`` worlds for the auction and the talon; it
    solves with ``analyser``'s tables (its own, made at its first search,
    when not given)."""

    name = "pimc"

    def __init__(
        self, samples: int = 10, auction: int = 6, rules: Rules = DEFAULT_RULES, analyser: Analyser | None = None
    ) -> None:
        if samples < 1 or auction < 1:
            raise BotSpecError("pimc: samples and auction must be at least 1")
        super().__init__()
        self.samples = samples
        self.auction = auction
        self.rules = rules
        self.seed = 0
        self.analyser = analyser
        self._contracts: dict[str, float] | None = None

    def start(self, seed: int, seat: Seat = 0) -> None:
        super().start(seed, seat)
        self.seed = seed
        self._contracts = None

    def _worlds(self, knows: Knowledge, salt: int) -> list[Dealt]:
        """``auction`` worlds of what the seat knows before the play, from
        its seed and ``salt``: deals as dealt, the talon as exposed or
        unseen (:func:`~kosolve.sampling.worlds.random_worlds`)."""
        seed = self.seed * 1_000_003 + salt
        worlds = []
        for world in random_worlds(knows.auction, self.auction, seed, knows.talon):
            assert isinstance(world, Dealt)
            worlds.append(world)
        return worlds

    def _contract_means(self, knows: Knowledge) -> dict[str, float]:
        """The mean game points of each contract for this seat as declarer,
        each world with its best talon choice and lay-away."""
        if self._contracts is None:
            analyser = self.searcher()
            totals = collections.Counter[str]()
            worlds = self._worlds(knows, 1)
            for world in worlds:
                rows = declarer_rows(world, knows.seat, rules=self.rules, solver=analyser.solver)
                for contract in CONTRACTS:
                    best = max((r for r in rows if r.contract == contract), key=lambda r: (r.thirds,))
                    totals[contract] += game_item(contract, best.won, best.valat)
            self._contracts = {c: totals[c] / len(worlds) for c in CONTRACTS}
        return self._contracts

    def _call(self, knows: Knowledge, options: Sequence[object]) -> str:
        """Hold or bid what gains most in mean, if it gains anything; else pass."""
        means = self._contract_means(knows)
        choices: list[tuple[float, str]] = []
        if HOLD in options:
            choices.append((means[_standing(knows.calls)], HOLD))
        choices += [(means[str(o)], str(o)) for o in options if o in CONTRACTS]
        best = max(choices, key=lambda c: c[0], default=(0.0, PASS))
        return best[1] if best[0] > 0 else PASS

    def _exchange(self, knows: Knowledge, options: Sequence[object]) -> tuple[tuple[Card, ...], Hand]:
        """The talon choice with the best mean game points over worlds with
        the talon as seen; the lay-away the worlds agree on most."""
        assert knows.contract is not None
        analyser = self.searcher()
        scores = collections.Counter[int]()
        laid: dict[int, collections.Counter[Hand]] = collections.defaultdict(collections.Counter)
        for world in self._worlds(knows, 2):
            rows = declarer_rows(world, knows.seat, rules=self.rules, solver=analyser.solver)
            for row in rows:
                if row.contract == knows.contract:
                    index = _index(options, row.take)
                    scores[index] += _row_points(row)
                    laid[index][row.lay_away] += 1
        choice = max(range(len(options)), key=lambda i: (scores[i], -i))
        take = options[choice]
        assert isinstance(take, tuple)
        return take, laid[choice].most_common(1)[0][0]

    def _card(self, view: SeatView, legal: list[Card]) -> Card:
        """The card with the best mean game item over the worlds, then the
        best mean thirds."""
        analyser = self.searcher()
        assert view.contract is not None and view.declarer is not None
        sums: dict[Card, list[float]] = {}
        worlds = sample_worlds(view, self.samples, self.seed * 1_000_003 + 100 + len(view.play))
        for world in worlds:
            assert not isinstance(world, Dealt)
            solution = solve(world.position(), solver=analyser.solver, rules=self.rules, with_line=False)
            for move in solution.moves:
                entry = sums.setdefault(move.card, [0.0, 0.0])
                entry[0] += _game_value(view.contract, move.thirds, self.rules.win_thirds)
                entry[1] += move.thirds
        moves = [(card, points, thirds) for card, (points, thirds) in sums.items()]
        return _best_card(moves, view.view == view.declarer)


def _row_points(row: ExchangeRow) -> int:
    return game_item(row.contract, row.won, row.valat)


class DoubleDummyBot(Searching, KindBot):
    """Sees every card: the par's calls from each state of the auction, the
    best exchange, and the best card for the game item and then the thirds;
    it solves with ``analyser``'s tables (its own when not given)."""

    name = "dd"
    omniscient = True

    def __init__(self, rules: Rules = DEFAULT_RULES, analyser: Analyser | None = None) -> None:
        self.rules = rules
        self.analyser = analyser
        self._rows: tuple[ExchangeRow, ...] | None = None
        self._dealt: Dealt | None = None

    def start(self, seed: int, seat: Seat = 0) -> None:
        self._rows = None
        self._dealt = None

    def _table(self, game: Game) -> tuple[ExchangeRow, ...]:
        if self._rows is None or self._dealt is not game.dealt:
            solver = self.searcher().solver
            self._rows = tuple(
                r for seat in (0, 1) for r in declarer_rows(game.dealt, seat, rules=self.rules, solver=solver)
            )
            self._dealt = game.dealt
        return self._rows

    def _best_row(self, game: Game, declarer: Seat, contract: str) -> ExchangeRow:
        rows = [r for r in self._table(game) if r.declarer == declarer and r.contract == contract]
        return max(rows, key=lambda r: (_row_points(r), r.thirds))

    def _bid(self, decision: Decision, game: Game | None) -> Option:
        game = _shown(game)
        values = {
            (seat, contract): _row_points(self._best_row(game, seat, contract))
            for seat in (0, 1)
            for contract in CONTRACTS
        }
        assert game.auction is not None
        return par(values, game.auction).calls[0]

    def _declared(self, game: Game | None) -> ExchangeRow:
        """The best exchange of the contract bid."""
        game = _shown(game)
        assert game.declarer is not None and game.contract is not None
        return self._best_row(game, game.declarer, game.contract)

    def _take(self, decision: Decision, game: Game | None) -> Option:
        return self._declared(game).take

    def _lay_away(self, decision: Decision, game: Game | None) -> Option:
        laid = self._declared(game).lay_away
        return laid if laid in decision.options else decision.options[0]

    def _play(self, decision: Decision, game: Game | None) -> Option:
        game = _shown(game)
        assert game.position is not None and game.contract is not None
        position = game.position
        solution = solve(position, solver=self.searcher().solver, rules=self.rules, with_line=False)
        moves = [
            (m.card, _game_value(game.contract, m.thirds, self.rules.win_thirds), m.thirds) for m in solution.moves
        ]
        return _best_card(moves, position.turn == position.declarer)


def _shown(game: Game | None) -> Game:
    assert game is not None, "the dd bot is shown the game"
    return game


BOTS: Final[dict[str, Callable[..., Bot]]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "pimc": PimcBot,
    "dd": DoubleDummyBot,
}
"""The bots by name, each made with the options of its spec."""


def make_bot(
    spec: str, rules: Rules = DEFAULT_RULES, analyser: Analyser | None = None, move_time: float = DEFAULT_MOVE_TIME
) -> Bot:
    """The bot a spec names: ``NAME`` or ``NAME:KEY=VALUE,...`` (integer
    values), e.g. ``pimc:samples=50``, or ``exec:COMMAND ARGS``, a program
    that speaks the protocol with ``move_time`` seconds a decision.  A bot
    that searches (``pimc``, ``dd``) uses ``analyser``'s tables when given,
    so that many bots share one bounded set (one search at a time: they
    are not for two threads); else each makes its own.

    >>> make_bot("pimc:samples=5,auction=2").samples
    5
    >>> make_bot("pimc:sample=5")
    Traceback (most recent call last):
    ...
    kosolve.play.player.BotSpecError: pimc: no option 'sample' (it takes samples, auction)
    """
    if spec.startswith(EXEC_PREFIX):
        return ExecBot(spec[len(EXEC_PREFIX) :], move_time)
    name, _, rest = spec.partition(":")
    if name not in BOTS:
        raise BotSpecError(f"{spec!r}: no bot of that name (one of {', '.join(BOTS)}, or exec:COMMAND)")
    options: dict[str, int] = {}
    allowed = {"pimc": ("samples", "auction")}.get(name, ())
    for part in filter(None, rest.split(",")):
        key, _, value = part.partition("=")
        if key not in allowed:
            takes = f"it takes {', '.join(allowed)}" if allowed else "it takes none"
            raise BotSpecError(f"{name}: no option {key!r} ({takes})")
        try:
            options[key] = int(value)
        except ValueError:
            raise BotSpecError(f"{name}: {key} must be an integer, not {value!r}") from None
    if name in ("pimc", "dd"):
        return BOTS[name](rules=rules, analyser=analyser, **options)
    return BOTS[name](**options)


__all__ = [
    "BOTS",
    "DoubleDummyBot",
    "HeuristicBot",
    "KindBot",
    "PimcBot",
    "RandomBot",
    "Searching",
    "SeatBot",
    "make_bot",
]
