"""Bots: players that take every decision of a game (:mod:`kosolve.play.game`)
from what their seat knows.

A bot is a :class:`Bot`: :meth:`Bot.start` at each game with its seed,
:meth:`Bot.decide` for each decision (the index of its option), :meth:`Bot.close`
at the end of a match.  Four come with kosolve (docs/bots.md), named by a
spec, with options after a colon (:func:`make_bot`):

- ``random``: uniform over the legal options, from its seed;
- ``heuristic``: a club player's rules of thumb;
- ``pimc``: perfect-information Monte Carlo: it deals the unseen cards in
  ways its view allows, solves each world exactly and takes the best mean
  (``pimc:samples=10,auction=6``, the defaults);
- ``dd``: sees every card and plays double dummy: the ceiling, never a fair
  opponent.

A bot decides from :class:`~kosolve.play.game.Knowledge` alone; only a bot
whose :attr:`Bot.omniscient` is true is also shown the game.

>>> import random
>>> from kosolve.play.game import Game
>>> from kosolve.dealing import deal_as_dealt
>>> game, bot = Game(deal_as_dealt(random.Random(3))), make_bot("heuristic")
>>> bot.start(7)
>>> game.decision().options[bot.decide(game.decision())]
'dreiblatt'
"""

from __future__ import annotations

import collections
import random
from collections.abc import Callable, Sequence
from typing import ClassVar, Final

from kosolve.analysis.exchange import ExchangeRow, declarer_rows
from kosolve.analysis.par import par
from kosolve.analysis.report import Analyser
from kosolve.analysis.solving import solve
from kosolve.dealing import bid, choose_exchange, hand_strength
from kosolve.model.auction import HOLD, PASS
from kosolve.model.cards import (
    ALL_CARDS,
    CARD_VALUES,
    KINGS,
    PAGAT,
    SUIT_MASKS,
    TAROCK,
    Card,
    Hand,
    cards_of,
    mask_of,
    suit_of,
)
from kosolve.model.dealt import DISCARD_SIZE, PERSONAL_SIZE, Dealt
from kosolve.model.game import CONTRACTS, DEFAULT_RULES, TALON_SIZE, Rules, Seat, reply_wins
from kosolve.model.scoring import game_item
from kosolve.model.view import FACE_DOWN, SeatView
from kosolve.play.game import Decision, Game, Knowledge, Move
from kosolve.sampling.worlds import sample_worlds

LEAST_STRENGTH: Final = 12.0
"""The heuristic bot passes with a hand weaker than this (:func:`~kosolve.dealing.hand_strength`)."""


class BotSpecError(ValueError):
    """A bot spec that names no bot, or an option it does not take."""


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

    def observe(self, move: Move) -> None:
        """The other seat took a decision."""

    def end(self, totals: dict[str, int] | None) -> None:
        """The game is over: each seat's game points (None when both passed)."""

    def close(self) -> None:
        """The match is over."""


class RandomBot(Bot):
    """Uniform over the legal options, from its seed."""

    name = "random"

    def __init__(self) -> None:
        self.rng = random.Random(0)

    def start(self, seed: int, seat: Seat = 0) -> None:
        self.rng = random.Random(seed)

    def decide(self, decision: Decision, game: Game | None = None) -> int:
        return self.rng.randrange(len(decision.options))


class SeatBot(Bot):
    """A bot that decides from its seat in three parts: its call
    (:meth:`_call`), its talon choice with the lay-away it plans for it
    (:meth:`_exchange`) and its card (:meth:`_card`); it announces nothing."""

    def __init__(self) -> None:
        self._planned: Hand | None = None

    def start(self, seed: int, seat: Seat = 0) -> None:
        self._planned = None

    def decide(self, decision: Decision, game: Game | None = None) -> int:
        knows = decision.knowledge
        options = decision.options
        if decision.kind == "bid":
            return _index(options, self._call(knows, options))
        if decision.kind == "announce":
            return 0
        if decision.kind == "take":
            take, self._planned = self._exchange(knows, options)
            return _index(options, take)
        if decision.kind == "lay_away":
            return _index(options, self._planned) if self._planned in options else 0
        assert knows.seat_view is not None
        return _index(options, self._card(knows.seat_view, [c for c in options if isinstance(c, int)]))

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
        exchange = choose_exchange(knows.hand, knows.contract, knows.talon, self.rng)
        return exchange.take, exchange.lay_away

    def _call(self, knows: Knowledge, options: Sequence[object]) -> str:
        """Bid up to the contract the hand's strength is worth, no higher
        than needed; hold when that contract is standing; else pass."""
        strength = hand_strength(knows.hand)
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


class PimcBot(SeatBot):
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

    def _solver_analyser(self) -> Analyser:
        if self.analyser is None:
            self.analyser = Analyser()
        return self.analyser

    def start(self, seed: int, seat: Seat = 0) -> None:
        super().start(seed, seat)
        self.seed = seed
        self._contracts = None

    def _worlds_before_play(self, knows: Knowledge, count: int, salt: int) -> list[Dealt]:
        """Deals as dealt that fit what the seat knows before the play, each
        equally likely: the other's face-down discards drawn from the unseen
        plain cards (no kings), then the talon, as seen or drawn from what
        is left (as many talons are left after any discards, so the two
        draws in turn are uniform over the worlds)."""
        rng = random.Random(self.seed * 1_000_003 + salt)
        me, other = knows.seat, 1 - knows.seat
        unseen = ALL_CARDS & ~knows.hand & ~knows.discards & ~mask_of(knows.talon or ())
        worlds = []
        for _ in range(count):
            rest = unseen & ~knows.other_face_up
            down = sorted(cards_of(rest & FACE_DOWN))
            laid = knows.other_face_up | mask_of(rng.sample(down, DISCARD_SIZE - knows.other_face_up.bit_count()))
            rest &= ~laid
            talon = knows.talon
            if talon is None:
                talon = tuple(rng.sample(sorted(cards_of(rest)), TALON_SIZE))
            held = rest & ~mask_of(talon)
            hands, discards = [0, 0], [0, 0]
            personal = [0, 0]
            for seat, cards, pile in ((me, knows.hand, knows.discards), (other, held, laid)):
                low = sorted(cards_of(cards))[:PERSONAL_SIZE]
                personal[seat] = mask_of(low)
                hands[seat] = cards & ~personal[seat] | pile
                discards[seat] = pile
            worlds.append(
                Dealt(tuple(talon), (hands[0], hands[1]), (personal[0], personal[1]), (discards[0], discards[1]))
            )
        return worlds

    def _contract_means(self, knows: Knowledge) -> dict[str, float]:
        """The mean game points of each contract for this seat as declarer,
        each world with its best talon choice and lay-away."""
        if self._contracts is None:
            analyser = self._solver_analyser()
            totals = collections.Counter[str]()
            worlds = self._worlds_before_play(knows, self.auction, 1)
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
        analyser = self._solver_analyser()
        scores = collections.Counter[int]()
        laid: dict[int, collections.Counter[Hand]] = collections.defaultdict(collections.Counter)
        for world in self._worlds_before_play(knows, self.auction, 2):
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
        analyser = self._solver_analyser()
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


class DoubleDummyBot(Bot):
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

    def _analyser(self) -> Analyser:
        if self.analyser is None:
            self.analyser = Analyser()
        return self.analyser

    def start(self, seed: int, seat: Seat = 0) -> None:
        self._rows = None
        self._dealt = None

    def _table(self, game: Game) -> tuple[ExchangeRow, ...]:
        if self._rows is None or self._dealt is not game.dealt:
            solver = self._analyser().solver
            self._rows = tuple(
                r for seat in (0, 1) for r in declarer_rows(game.dealt, seat, rules=self.rules, solver=solver)
            )
            self._dealt = game.dealt
        return self._rows

    def _best_row(self, game: Game, declarer: Seat, contract: str) -> ExchangeRow:
        rows = [r for r in self._table(game) if r.declarer == declarer and r.contract == contract]
        return max(rows, key=lambda r: (_row_points(r), r.thirds))

    def decide(self, decision: Decision, game: Game | None = None) -> int:
        assert game is not None, "the dd bot is shown the game"
        options = decision.options
        if decision.kind == "bid":
            values = {
                (seat, contract): _row_points(self._best_row(game, seat, contract))
                for seat in (0, 1)
                for contract in CONTRACTS
            }
            assert game.auction is not None
            return _index(options, par(values, game.auction).calls[0])
        if decision.kind == "announce":
            return 0
        assert game.declarer is not None and game.contract is not None
        if decision.kind == "take":
            return _index(options, self._best_row(game, game.declarer, game.contract).take)
        if decision.kind == "lay_away":
            row = self._best_row(game, game.declarer, game.contract)
            return _index(options, row.lay_away) if row.lay_away in options else 0
        assert game.position is not None
        position = game.position
        solution = solve(position, solver=self._analyser().solver, rules=self.rules, with_line=False)
        moves = [
            (m.card, _game_value(game.contract, m.thirds, self.rules.win_thirds), m.thirds) for m in solution.moves
        ]
        return _index(options, _best_card(moves, position.turn == position.declarer))


BOTS: Final[dict[str, Callable[..., Bot]]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "pimc": PimcBot,
    "dd": DoubleDummyBot,
}
"""The bots by name, each made with the options of its spec."""


def make_bot(spec: str, rules: Rules = DEFAULT_RULES, analyser: Analyser | None = None) -> Bot:
    """The bot a spec names: ``NAME`` or ``NAME:KEY=VALUE,...`` (integer
    values), e.g. ``pimc:samples=50``.  A bot that searches (``pimc``,
    ``dd``) uses ``analyser``'s tables when given, so that many bots share
    one bounded set (one search at a time: they are not for two threads);
    else each makes its own.

    >>> make_bot("pimc:samples=5,auction=2").samples
    5
    >>> make_bot("pimc:sample=5")
    Traceback (most recent call last):
    ...
    kosolve.play.bots.BotSpecError: pimc: no option 'sample' (it takes samples, auction)
    """
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
    "Bot",
    "BotSpecError",
    "DoubleDummyBot",
    "HeuristicBot",
    "PimcBot",
    "RandomBot",
    "SeatBot",
    "make_bot",
]
