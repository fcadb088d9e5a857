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
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Final

from kosolve.analysis.exchange import (
    ExchangeRow,
    best_game_items,
    declared_row,
    declarer_rows,
    talon_choice_items,
    talon_choice_row,
)
from kosolve.analysis.netscore import net_score, net_score_at_least, net_scores_after
from kosolve.analysis.par import par
from kosolve.analysis.report import Analyser
from kosolve.analysis.scoring import settle
from kosolve.analysis.solving import solve
from kosolve.dealing import bid, choose_exchange, hand_strength
from kosolve.model.announcements import BIRD_NAMES, BIRDS, Announcement, bird_named
from kosolve.model.auction import HOLD, PASS
from kosolve.model.cards import (
    CARD_VALUES,
    KINGS,
    MOND,
    PAGAT,
    SKUS,
    SUIT_MASKS,
    TAROCK,
    TRULL,
    Card,
    Hand,
    mask_of,
    suit_of,
)
from kosolve.model.deal import Deal
from kosolve.model.dealt import Dealt, Exchange, talon_choices
from kosolve.model.game import CONTRACTS, DEFAULT_RULES, TRICKS_PER_GAME, Rules, Seat, reply_wins
from kosolve.model.scoring import game_item
from kosolve.model.view import TAROCKS, SeatView
from kosolve.play.game import DONE, Decision, Game, Knowledge, Option
from kosolve.play.player import Bot, BotSpecError
from kosolve.play.protocol import DEFAULT_MOVE_TIME, EXEC_PREFIX, ExecBot
from kosolve.sampling.endgame import dd_leaf, endgame_choice
from kosolve.sampling.inference import (
    DEFAULT_CARD_WEIGHT,
    Inference,
    weighted_auction_worlds,
    weighted_play_worlds,
)
from kosolve.sampling.worlds import all_worlds, random_worlds, sample_worlds, world_space

LEAST_STRENGTH: Final = 12.0
"""The heuristic bot passes with a hand weaker than this (:func:`~kosolve.dealing.hand_strength`)."""
ANNOUNCE_MODES: Final = ("all", "none")
"""The values of a bot's ``announce`` option: ``all`` (announce and say
Kontra by its rules, and play for the bonuses) or ``none`` (never: the bot
as it played before it announced)."""


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
    the one place the bundled bots branch on a decision's kind.  By
    default it announces nothing and says no Kontra (``done``)."""

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


def _announces(name: str, announce: str) -> bool:
    if announce not in ANNOUNCE_MODES:
        raise BotSpecError(f"{name}: announce must be {' or '.join(ANNOUNCE_MODES)}, not {announce!r}")
    return announce == "all"


def announcement_timing(knows: Knowledge) -> str | None:
    """When an announcement made now is made: None in a Solo, ``before``
    until the talon is taken, ``after`` from then on."""
    if knows.contract == "solo":
        return None
    return "before" if knows.take is None else "after"


def with_option(decision: Decision, option: Option) -> tuple[Announcement, ...]:
    """The announcements once ``option`` of an ``announce`` or ``kontra``
    decision is taken (``done`` leaves them as they are)."""
    knows = decision.knowledge
    if option == DONE:
        return knows.announcements
    assert isinstance(option, str)
    if decision.kind == "announce":
        return (*knows.announcements, Announcement(decision.seat, option, announcement_timing(knows)))
    return tuple(replace(a, kontra=True) if a.what == option else a for a in knows.announcements)


SILENT_BIRDS_FROM: Final = 9
"""The trick from which a silent bird still in play opens a bonus: before
it a card's score search costs several times its points search (0.43 s
against 0.02 s for the 16 cards of trick 1 in examples/whole-deal.json),
and a silent bird is worth 3 game points; from trick 9 on it is cheap."""


def bonus_open(announcements: Iterable[Announcement], play: Sequence[Card], piles: Hand) -> bool:
    """Whether a bonus is still open, so that a card is chosen for the net
    score: a bird card I–IV not yet played nor lying in a pile (``piles``,
    the cards known to lie there), its trick not yet past, when the bird
    was announced or, silent, from trick :data:`SILENT_BIRDS_FROM` on (an
    announced bird whose card is gone is decided); or any other
    announcement (the Valat, Absolut, Panzer, Without Trull, Without
    kings), open to the end."""
    tricks_done = len(play) // 2
    gone = mask_of(play) | piles
    announced = {a.what for a in announcements}
    for bird in BIRDS:
        in_play = not gone >> bird.card & 1 and tricks_done < bird.trick
        if in_play and (bird.name in announced or tricks_done + 1 >= SILENT_BIRDS_FROM):
            return True
    return any(a.what not in BIRD_NAMES for a in announcements)


def _card_values(
    deal: Deal, legal: Sequence[Card], rules: Rules, analyser: Analyser, by_net: bool
) -> dict[Card, tuple[float, float]]:
    """Each legal card's (game points, thirds) for the declarer with best
    play in ``deal`` after its play so far: the game points are the net
    score's (``by_net``) or the game item's."""
    position = deal.position()
    solution = solve(position, solver=analyser.solver, rules=rules, with_line=False)
    thirds = {m.card: m.thirds for m in solution.moves}
    if by_net:
        nets = net_scores_after(deal, position, legal, rules=rules, solver=analyser.score_solver)
        points = [float(net.score) for net in nets]
    else:
        points = [float(_game_value(deal.contract, thirds[card], rules.win_thirds)) for card in legal]
    return {card: (value, thirds[card]) for card, value in zip(legal, points, strict=True)}


TOP_TAROCKS: Final[Hand] = (1 << SKUS) | (1 << MOND) | (1 << (MOND - 1)) | (1 << (MOND - 2))
"""The four highest tarocks, Sk, XXI, XX and XIX: the heuristic bot's "top"."""
PLAIN: Final[Hand] = SUIT_MASKS[0] | SUIT_MASKS[1] | SUIT_MASKS[2] | SUIT_MASKS[3]


@dataclass(frozen=True)
class AnnounceRule:
    """When the heuristic bot announces a bonus: it holds the ``card`` (a
    bird's; None for the others) and at least ``tarocks`` tarocks, ``top``
    of them among Sk, XXI, XX and XIX, a hand strength of at least
    ``strength`` (:func:`~kosolve.dealing.hand_strength`); ``lacking``
    cards it must not hold; ``kings_only`` when each plain card it holds
    must be a king."""

    tarocks: int = 0
    top: int = 0
    strength: float = 0.0
    card: Card | None = None
    lacking: Hand = 0
    kings_only: bool = False

    def holds(self, hand: Hand) -> bool:
        return (
            (self.card is None or bool(hand >> self.card & 1))
            and (hand & TAROCKS).bit_count() >= self.tarocks
            and (hand & TOP_TAROCKS).bit_count() >= self.top
            and hand_strength(hand) >= self.strength
            and not hand & self.lacking
            and (not self.kings_only or not hand & PLAIN & ~KINGS)
        )


HEURISTIC_ANNOUNCE: Final = {
    "pagat": AnnounceRule(card=PAGAT, tarocks=12, top=3),
    "uhu": AnnounceRule(card=bird_named("uhu").card, tarocks=14, top=4),
    "valat": AnnounceRule(tarocks=15, top=4, kings_only=True),
    "absolut": AnnounceRule(tarocks=10, strength=20.0),
    "without_trull": AnnounceRule(tarocks=10, strength=14.0, lacking=TRULL),
    "without_kings": AnnounceRule(tarocks=10, strength=14.0, lacking=KINGS),
}
"""The heuristic bot's announcements (docs/bots.md), each when its hand of
16 cards at trick 1 meets the rule, and only in the round after the talon
(a Solo's only round): no Pelikan, Quapil or Panzer."""
HEURISTIC_KONTRA: Final = {
    "pagat": AnnounceRule(tarocks=9),
    "uhu": AnnounceRule(tarocks=8, top=2),
    "pelikan": AnnounceRule(tarocks=8, top=2),
    "quapil": AnnounceRule(tarocks=8, top=2),
    "valat": AnnounceRule(card=SKUS),
    "panzer": AnnounceRule(tarocks=7),
}
"""The heuristic bot's Kontras: on a bird when it holds that bird's card
(the announcement cannot be made) or meets the rule; on the Valat when it
holds the Sk (which takes a trick); on Panzer with 7 tarocks; never on
Absolut, Without Trull or Without kings."""


def hand_at_trick_one(knows: Knowledge) -> Hand:
    """The seat's 16 cards at trick 1 as far as it knows them now: after
    the exchange, the declarer's with the cards taken and without his
    lay-away."""
    hand = knows.auction.hand
    if knows.seat == knows.declarer and knows.take is not None and knows.lay_away is not None:
        hand = (hand | mask_of(knows.take)) & ~knows.lay_away
    return hand


class HeuristicBot(SeatBot):
    """A club player's rules of thumb (docs/bots.md, "heuristic");
    ``announce="none"`` never announces nor says Kontra."""

    name = "heuristic"

    def __init__(self, announce: str = "all") -> None:
        super().__init__()
        self.rng = random.Random(0)
        self.announces = _announces(self.name, announce)

    def start(self, seed: int, seat: Seat = 0) -> None:
        super().start(seed, seat)
        self.rng = random.Random(seed)

    def _announce(self, decision: Decision, game: Game | None) -> Option:
        """The first bonus of :data:`HEURISTIC_ANNOUNCE` its hand meets, in
        the round after the talon (a Solo's only round); else done."""
        knows = decision.knowledge
        if not self.announces or announcement_timing(knows) == "before":
            return DONE
        hand = hand_at_trick_one(knows)
        for option in decision.options[1:]:
            rule = HEURISTIC_ANNOUNCE.get(str(option))
            if rule is not None and rule.holds(hand):
                return option
        return DONE

    def _kontra(self, decision: Decision, game: Game | None) -> Option:
        """A Kontra on the first announcement of the other it expects to
        fail (:data:`HEURISTIC_KONTRA`); else done."""
        if not self.announces:
            return DONE
        hand = hand_at_trick_one(decision.knowledge)
        for option in decision.options[1:]:
            what = str(option)
            if what in BIRD_NAMES and hand >> bird_named(what).card & 1:
                return option
            rule = HEURISTIC_KONTRA.get(what)
            if rule is not None and rule.holds(hand):
                return option
        return DONE

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
        """Lead: a king, else (with a bird of its own announced) its highest
        tarock, else the lowest card of his longest plain suit, else his
        lowest tarock.  Follow: take a trick worth taking with the cheapest
        card that wins it, else throw the cheapest card.  The Pagat and the
        birds it announced are kept back to the last."""
        hand = mask_of(legal)
        tricks = view.tricks
        on_table = tricks[-1] if tricks and tricks[-1].winner is None else None
        own = {bird_named(a.what).card for a in view.announcements if a.by == view.view and a.what in BIRD_NAMES}
        kept = {PAGAT} | own

        def cheap(card: Card) -> tuple[bool, int, int]:
            return (card in kept, CARD_VALUES[card], card)

        if on_table is None:
            kings = [c for c in legal if (1 << c) & KINGS]
            if kings:
                return kings[0]
            drawing = [c for c in legal if suit_of(c) == TAROCK and c not in kept]
            if own and drawing:
                return max(drawing)
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
    worlds a card, ``auction`` worlds for the auction, the talon and the
    announcements; it solves with ``analyser``'s tables (its own, made at
    its first search, when not given).  ``announce="none"`` never
    announces nor says Kontra, and chooses its cards by the game item and
    the points alone."""

    name = "pimc"

    def __init__(
        self,
        samples: int = 10,
        auction: int = 6,
        rules: Rules = DEFAULT_RULES,
        analyser: Analyser | None = None,
        announce: str = "all",
        bonus_samples: int = 3,
    ) -> None:
        if samples < 1 or auction < 1 or bonus_samples < 1:
            raise BotSpecError("pimc: samples, auction and bonus_samples must be at least 1")
        super().__init__()
        self.samples = samples
        self.auction = auction
        self.bonus_samples = bonus_samples
        self.rules = rules
        self.seed = 0
        self.analyser = analyser
        self.announces = _announces(self.name, announce)
        self._contracts: dict[str, float] | None = None
        self._dealts: dict[tuple[object, ...], list[Dealt]] = {}
        self._rows: dict[tuple[int, Seat, str], ExchangeRow] = {}
        self._take_rows: dict[tuple[int, Seat, str, tuple[Card, ...]], ExchangeRow] = {}
        self._nets: dict[tuple[object, ...], tuple[int, ...]] = {}

    def start(self, seed: int, seat: Seat = 0) -> None:
        super().start(seed, seat)
        self.seed = seed
        self._contracts = None
        self._dealts = {}
        self._rows = {}
        self._take_rows = {}
        self._nets = {}

    def _worlds(self, knows: Knowledge, salt: int) -> list[Dealt]:
        """``auction`` worlds of what the seat knows before the play, from
        its seed and ``salt``: deals as dealt, the talon as exposed or
        unseen (:func:`~kosolve.sampling.worlds.random_worlds`); the same
        worlds for every decision of a game that knows the same."""
        key = (salt, knows.talon)
        if key not in self._dealts:
            seed = self.seed * 1_000_003 + salt
            worlds = []
            for world in random_worlds(knows.auction, self.auction, seed, knows.talon):
                assert isinstance(world, Dealt)
                worlds.append(world)
            self._dealts[key] = worlds
        return self._dealts[key]

    def _declared_row(self, index: int, world: Dealt, declarer: Seat, contract: str) -> ExchangeRow:
        """The row ``declarer`` of ``contract`` picks in world ``index`` of
        the worlds before the talon was seen (:func:`declared_row`), worked
        out once a game."""
        key = (index, declarer, contract)
        if key not in self._rows:
            self._rows[key] = declared_row(world, declarer, contract, rules=self.rules, solver=self.searcher().solver)
        return self._rows[key]

    def _contract_means(self, knows: Knowledge) -> dict[str, float]:
        """The mean game points of each contract for this seat as declarer,
        each world with its best talon choice and lay-away."""
        if self._contracts is None:
            totals = collections.Counter[str]()
            worlds = self._worlds(knows, 1)
            solver = self.searcher().solver
            for world in worlds:
                # Each contract's game item with its best exchange, not every talon choice's best.
                items = best_game_items(world, knows.seat, rules=self.rules, solver=solver)
                for contract, item in zip(CONTRACTS, items, strict=True):
                    totals[contract] += item
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
        contract = knows.contract
        assert contract is not None
        scores = collections.Counter[int]()
        worlds = self._worlds(knows, 2)
        solver = self.searcher().solver
        for world in worlds:
            # Each talon half's game item, not its best lay-away: that only for the half taken.
            items = talon_choice_items(world, knows.seat, contract, rules=self.rules, solver=solver)
            for half, item in zip(talon_choices(contract, world.talon), items, strict=True):
                scores[_index(options, half)] += item
        choice = max(range(len(options)), key=lambda i: (scores[i], -i))
        take = options[choice]
        assert isinstance(take, tuple)
        laid = collections.Counter(
            self._take_row(index, world, knows.seat, contract, take).lay_away for index, world in enumerate(worlds)
        )
        return take, laid.most_common(1)[0][0]

    def _take_row(self, index: int, world: Dealt, declarer: Seat, contract: str, take: tuple[Card, ...]) -> ExchangeRow:
        """The row of talon choice ``take`` in world ``index`` of the worlds
        that saw the talon, worked out once a game."""
        key = (index, declarer, contract, take)
        if key not in self._take_rows:
            self._take_rows[key] = talon_choice_row(
                world, declarer, contract, take, rules=self.rules, solver=self.searcher().solver
            )
        return self._take_rows[key]

    def _exchanges(self, knows: Knowledge) -> list[tuple[Dealt, Exchange]]:
        """The worlds of the announcement rounds, each with the declarer's
        exchange: before it is made, the world's best row for the contract
        (by game points, then thirds); once made, the declarer's own, or
        for the defender, who saw the talon cards taken but not the cards
        laid away face down, the world's best lay-away for that take."""
        contract, declarer = knows.contract, knows.declarer
        assert contract is not None and declarer is not None
        if contract == "solo":
            return [(world, Exchange((), 0)) for world in self._worlds(knows, 1)]
        found = []
        for index, world in enumerate(self._worlds(knows, 1 if knows.take is None else 2)):
            if knows.take is None:
                found.append((world, self._declared_row(index, world, declarer, contract).exchange))
            elif knows.lay_away is None:
                found.append((world, self._take_row(index, world, declarer, contract, knows.take).exchange))
            else:
                found.append((world, Exchange(knows.take, knows.lay_away)))
        return found

    def _round_deals(self, knows: Knowledge, announcements: tuple[Announcement, ...]) -> list[Deal]:
        """The worlds of the round (:meth:`_exchanges`) as deals to play
        with ``announcements``."""
        assert knows.contract is not None and knows.declarer is not None
        return [
            world.play_deal(
                knows.contract, knows.declarer, exchange, announcements=announcements, variant=self.rules.discard
            )
            for world, exchange in self._exchanges(knows)
        ]

    def _nets_of(self, knows: Knowledge, announcements: tuple[Announcement, ...]) -> tuple[int, ...]:
        """The seat's net game points in each world of the round
        (:meth:`_exchanges`) with ``announcements`` and best play."""
        key = (knows.take, announcements)
        if key not in self._nets:
            solver = self.searcher().score_solver
            sign = 1 if knows.seat == knows.declarer else -1
            self._nets[key] = tuple(
                sign * net_score(deal, rules=self.rules, solver=solver, with_points_line=False, with_line=False).score
                for deal in self._round_deals(knows, announcements)
            )
        return self._nets[key]

    def _loses_nowhere(self, knows: Knowledge, announcements: tuple[Announcement, ...], nets: tuple[int, ...]) -> bool:
        """Whether the seat's net game points with ``announcements`` are at
        least ``nets`` in every world of the round: one null-window test a
        world, and none after a world where they are not (most options
        lose somewhere, and no value of theirs is needed then)."""
        solver = self.searcher().score_solver
        declares = knows.seat == knows.declarer
        for deal, net in zip(self._round_deals(knows, announcements), nets, strict=True):
            # The defender's net is the declarer's negated: his ">= net" is the declarer's "< -net + 1".
            score = net if declares else -net + 1
            if net_score_at_least(deal, score, rules=self.rules, solver=solver) != declares:
                return False
        return True

    def _bonus(self, decision: Decision) -> Option:
        """The option (an announcement, a Kontra) of the best mean net game
        points over the worlds, among those that gain on ``done`` in the
        mean and lose in no world (each world is played double dummy, which
        makes a bonus look surer than it is: the other's defence in it
        knows no more than the bonus needs); one that cannot be made
        (:func:`_hopeless`) is not searched."""
        knows = decision.knowledge
        if not self.announces or len(decision.options) == 1:
            return DONE
        without = self._nets_of(knows, knows.announcements)
        best: tuple[float, Option] = (0.0, DONE)
        for option in decision.options[1:]:
            if decision.kind == "announce" and _hopeless(knows, str(option)):
                continue
            announcements = with_option(decision, option)
            if not self._loses_nowhere(knows, announcements, without):
                continue
            gains = [a - b for a, b in zip(self._nets_of(knows, announcements), without, strict=True)]
            if sum(gains) / len(gains) > best[0]:
                best = (sum(gains) / len(gains), option)
        return best[1]

    def _announce(self, decision: Decision, game: Game | None) -> Option:
        return self._bonus(decision)

    def _kontra(self, decision: Decision, game: Game | None) -> Option:
        return self._bonus(decision)

    def _card(self, view: SeatView, legal: list[Card]) -> Card:
        """The card with the best mean game points over the worlds, then the
        best mean thirds: the net score's while a bonus is open
        (:func:`bonus_open`, over ``bonus_samples`` worlds), else the game
        item's (over ``samples``)."""
        if len(legal) == 1:
            return legal[0]
        analyser = self.searcher()
        assert view.contract is not None and view.declarer is not None
        by_net = self.announces and bonus_open(view.announcements, view.play, view.pile | view.other_pile)
        sums: dict[Card, list[float]] = {}
        # From the silent birds' trick on the score search is cheap: all the worlds.
        early = len(view.play) < 2 * (SILENT_BIRDS_FROM - 1)
        samples = self.bonus_samples if by_net and early else self.samples
        for world, weight in self._card_worlds(view, samples, self.seed * 1_000_003 + 100 + len(view.play)):
            for card, (points, thirds) in _card_values(world, legal, self.rules, analyser, by_net).items():
                entry = sums.setdefault(card, [0.0, 0.0])
                entry[0] += weight * points
                entry[1] += weight * thirds
        moves = [(card, points, thirds) for card, (points, thirds) in sums.items()]
        return _best_card(moves, view.view == view.declarer)

    def _card_worlds(self, view: SeatView, samples: int, seed: int) -> list[tuple[Deal, float]]:
        """The worlds a card is valued in, each with its weight in the
        means: ``samples`` of ``view``'s, alike (a weight of 1 leaves the
        sums exactly as unweighted)."""
        worlds = []
        for world in sample_worlds(view, samples, seed):
            assert isinstance(world, Deal)
            worlds.append((world, 1.0))
        return worlds


DEFAULT_ENDGAME_TRICKS: Final = 4
"""The ``expert`` bot searches its cards without strategy fusion from the
trick when this many are left (docs/endgame.md: over the last four tricks
of 400 games, 31 ms a decision in the mean with up to 40 worlds)."""
DEFAULT_ENDGAME_DEPTH: Final = TRICKS_PER_GAME
"""How many of its own cards the ``expert`` bot's endgame search looks ahead
before each world's double-dummy value (1 is pimc): to the end of the
play, which is exact against an other who knows the world, and cheaper
than a depth of 2 (whose leaves are double-dummy searches)."""
EXPERT_CALL_WEIGHT: Final = 1.0
"""The ``expert`` bot's weight of a call that misfits (1: its calls weigh
no world).  The call model is the dealer's bidding rule; against ``pimc``,
which bids by its worlds' values, it points away from the true world
(docs/inference.md: a mean log-ratio of -0.048 in the auction over 100
pimc games), against ``heuristic`` toward it (+0.150): ``calls=0.25`` is
for bidders of that kind."""
DEFAULT_ENDGAME_WORLDS: Final = 40
"""The most worlds the ``expert`` bot's endgame search takes: with more it
plays pimc's card."""


class ExpertBot(PimcBot):
    """pimc past its two flaws (docs/bots.md, "expert"): its worlds lean
    toward what the other's play says of his cards, and its last tricks
    are searched without strategy fusion.

    - **Inference** (:mod:`~kosolve.sampling.inference`): during the play
      each world counts ``infer`` times less for each of the other's last
      cards that lost value in it double dummy; before the play, with
      ``calls`` below 1, its worlds are drawn in proportion to how well the
      other's calls fit his hand in them (``calls``, the weight of a call
      the dealer's bidding rule would not make).  ``infer=1,calls=1`` is
      pimc's uniform worlds.
    - **The endgame** (:mod:`~kosolve.sampling.endgame`): from the trick
      when ``endgame`` tricks are left, when the seat's view allows no
      more than ``worlds`` worlds, every one of them is searched together
      by αμ to ``depth`` of its own cards (the other assumed to know the
      world), in place of pimc's world-by-world values.  ``endgame=0``
      never does.
    """

    name = "expert"

    def __init__(
        self,
        samples: int = 10,
        auction: int = 6,
        rules: Rules = DEFAULT_RULES,
        analyser: Analyser | None = None,
        announce: str = "all",
        bonus_samples: int = 3,
        infer: float = DEFAULT_CARD_WEIGHT,
        calls: float = EXPERT_CALL_WEIGHT,
        endgame: int = DEFAULT_ENDGAME_TRICKS,
        depth: int = DEFAULT_ENDGAME_DEPTH,
        worlds: int = DEFAULT_ENDGAME_WORLDS,
    ) -> None:
        super().__init__(samples, auction, rules, analyser, announce, bonus_samples)
        if not (0 < infer <= 1 and 0 < calls <= 1):
            raise BotSpecError(f"expert: infer and calls must be above 0 and at most 1, not {infer} and {calls}")
        if endgame < 0 or depth < 1 or worlds < 1:
            raise BotSpecError("expert: endgame must be at least 0, depth and worlds at least 1")
        self.inference = Inference(card_weight=infer, call_weight=calls)
        self.endgame = endgame
        self.depth = depth
        self.endgame_worlds = worlds
        self._means: dict[tuple[str, ...], dict[str, float]] = {}

    def start(self, seed: int, seat: Seat = 0) -> None:
        super().start(seed, seat)
        self._means = {}

    def _worlds(self, knows: Knowledge, salt: int) -> list[Dealt]:
        """pimc's worlds (:meth:`PimcBot._worlds`), drawn in proportion to
        how well the other's calls so far fit them: a new set once he has
        called again, the same for every decision that knows the same;
        pimc's own while every world fits them alike (``calls=1``)."""
        key = (salt, knows.talon, knows.calls)
        if key not in self._dealts:
            seed = self.seed * 1_000_003 + salt
            self._dealts[key] = weighted_auction_worlds(
                knows.auction, knows.calls, self.auction, seed, self.inference, knows.talon
            )
        return self._dealts[key]

    def _contract_means(self, knows: Knowledge) -> dict[str, float]:
        """pimc's means, worked out again whenever the other's calls, and so
        the worlds, have changed."""
        if knows.calls not in self._means:
            self._contracts = None
            self._means[knows.calls] = super()._contract_means(knows)
        return self._means[knows.calls]

    def _card(self, view: SeatView, legal: list[Card]) -> Card:
        """The endgame search's card when few tricks and worlds are left,
        else pimc's card with each world weighted by the other's cards
        (:meth:`_card_worlds`)."""
        ending = self._ending(view) if len(legal) > 1 else None
        if ending is None:
            return super()._card(view, legal)
        analyser = self.searcher()
        by_net = self.announces and bonus_open(view.announcements, view.play, view.pile | view.other_pile)
        weights = [
            self.inference.weight(self.inference.card_blunders(world, view.other, analyser.solver, self.rules))
            for world in ending
        ]
        leaf = dd_leaf(ending, view.view, self.rules, analyser.solver, by_net, analyser.score_solver)
        return endgame_choice(ending, weights, self.depth, leaf).card

    def _card_worlds(self, view: SeatView, samples: int, seed: int) -> list[tuple[Deal, float]]:
        """pimc's worlds, each weighted by the other's cards in it."""
        return weighted_play_worlds(view, samples, seed, self.inference, self.searcher().solver, self.rules)

    def _ending(self, view: SeatView) -> list[Deal] | None:
        """Every world of ``view`` when the endgame search takes the card:
        at most ``endgame`` tricks left and at most ``worlds`` worlds."""
        tricks_left = TRICKS_PER_GAME - len(view.play) // 2
        if tricks_left > self.endgame or world_space(view).worlds > self.endgame_worlds:
            return None
        worlds = []
        for world in all_worlds(view):
            assert isinstance(world, Deal)
            worlds.append(world)
        return worlds


def _hopeless(knows: Knowledge, what: str) -> bool:
    """Whether announcing ``what`` must fail from what the seat knows: a
    bird whose card it does not hold and cannot take from the talon, or
    Without Trull or Without kings with such a card in hand (they are never
    laid away)."""
    hand = hand_at_trick_one(knows)
    if what in BIRD_NAMES:
        card = bird_named(what).card
        could_take = knows.seat == knows.declarer and announcement_timing(knows) == "before"
        seen = knows.auction.pile | knows.auction.other_pile
        return not hand >> card & 1 and not (could_take and not seen >> card & 1)
    if what == "without_trull":
        return bool(hand & TRULL)
    if what == "without_kings":
        return bool(hand & KINGS)
    return False


def _row_points(row: ExchangeRow) -> int:
    return game_item(row.contract, row.won, row.valat)


class DoubleDummyBot(Searching, KindBot):
    """Sees every card: the par's calls from each state of the auction, the
    best exchange, the announcements and Kontras that gain net game points
    double dummy, and the best card for the net score while a bonus is
    open, else for the game item and then the thirds; it solves with
    ``analyser``'s tables (its own when not given).  ``announce="none"``
    never announces nor says Kontra, and plays for the game item."""

    name = "dd"
    omniscient = True

    def __init__(self, rules: Rules = DEFAULT_RULES, analyser: Analyser | None = None, announce: str = "all") -> None:
        self.rules = rules
        self.analyser = analyser
        self.announces = _announces(self.name, announce)
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

    def _deal_at_trick_one(self, game: Game) -> Deal:
        """The hand as it will be played: the exchange made, or before it
        the best exchange of the contract (the one the dd bot makes)."""
        assert game.declarer is not None and game.contract is not None
        if game.contract == "solo":
            exchange = Exchange((), 0)
        elif game.take is not None and game.lay_away is not None:
            exchange = Exchange(game.take, game.lay_away)
        else:
            exchange = self._declared(game).exchange
        return game.dealt.play_deal(
            game.contract,
            game.declarer,
            exchange,
            announcements=tuple(game.announcements),
            variant=self.rules.discard,
        )

    def _net(self, deal: Deal, announcements: tuple[Announcement, ...]) -> int:
        """The declarer's net game points with best play and ``announcements``."""
        deal = replace(deal, announcements=announcements)
        solver = self.searcher().score_solver
        return net_score(deal, rules=self.rules, solver=solver, with_points_line=False, with_line=False).score

    def _made(self, deal: Deal, announcements: tuple[Announcement, ...], what: str) -> bool:
        """Whether ``what`` is made on the best line with ``announcements``."""
        deal = replace(deal, announcements=announcements)
        solver = self.searcher().score_solver
        line = net_score(deal, rules=self.rules, solver=solver, with_points_line=False).line
        announcer = next(a.by for a in announcements if a.what == what)
        items = settle(replace(deal, play=line), self.rules).items
        return any(item.name == what and item.to == announcer for item in items)

    def _bonus(self, decision: Decision, game: Game | None) -> Option:
        """The option (an announcement, a Kontra) that adds most to its
        net game points in the true deal, if one adds any (an announcement
        only if the best line makes it); else done."""
        if not self.announces or len(decision.options) == 1:
            return DONE
        game = _shown(game)
        deal = self._deal_at_trick_one(game)
        sign = 1 if decision.seat == deal.declarer else -1
        base = sign * self._net(deal, deal.announcements)
        gains: list[tuple[int, int, Option, tuple[Announcement, ...]]] = []
        for option in decision.options[1:]:
            announcements = with_option(decision, option)
            value = sign * self._net(deal, announcements)
            if value > base:
                gains.append((value, -len(gains), option, announcements))
        for _value, _order, option, announcements in sorted(gains, reverse=True):
            if decision.kind == "kontra" or self._made(deal, announcements, str(option)):
                return option
        return DONE

    def _announce(self, decision: Decision, game: Game | None) -> Option:
        return self._bonus(decision, game)

    def _kontra(self, decision: Decision, game: Game | None) -> Option:
        return self._bonus(decision, game)

    def _play(self, decision: Decision, game: Game | None) -> Option:
        game = _shown(game)
        deal = game.deal
        assert deal is not None and deal.piles is not None
        legal = [c for c in decision.options if isinstance(c, int)]
        if len(legal) == 1:
            return legal[0]
        by_net = self.announces and bonus_open(deal.announcements, deal.play, deal.piles[0] | deal.piles[1])
        values = _card_values(deal, legal, self.rules, self.searcher(), by_net)
        moves = [(card, points, thirds) for card, (points, thirds) in values.items()]
        return _best_card(moves, decision.seat == deal.declarer)


def _shown(game: Game | None) -> Game:
    assert game is not None, "the dd bot is shown the game"
    return game


BOTS: Final[dict[str, Callable[..., Bot]]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "pimc": PimcBot,
    "dd": DoubleDummyBot,
    "expert": ExpertBot,
}
"""The bots by name, each made with the options of its spec."""


def _integer(name: str, key: str, value: str, least: int, most: int | None = None) -> int:
    try:
        count = int(value)
    except ValueError:
        raise BotSpecError(f"{name}: {key} must be an integer, not {value!r}") from None
    if most is not None and not least <= count <= most:
        raise BotSpecError(f"{name}: {key} must be {least} to {most}, not {count}")
    if count < least:
        raise BotSpecError(f"{name}: {key} must be at least {least}, not {count}")
    return count


def _count(name: str, key: str, value: str) -> int:
    return _integer(name, key, value, 1)


def _weight(name: str, key: str, value: str) -> float:
    try:
        weight = float(value)
    except ValueError:
        raise BotSpecError(f"{name}: {key} must be a number, not {value!r}") from None
    if not 0 < weight <= 1:
        raise BotSpecError(f"{name}: {key} must be above 0 and at most 1, not {value}")
    return weight


def _tricks(name: str, key: str, value: str) -> int:
    return _integer(name, key, value, 0, TRICKS_PER_GAME)


def _mode(name: str, key: str, value: str) -> str:
    if value not in ANNOUNCE_MODES:
        raise BotSpecError(f"{name}: {key} must be {' or '.join(ANNOUNCE_MODES)}, not {value!r}")
    return value


SPEC_OPTIONS: Final[dict[str, dict[str, Callable[[str, str, str], object]]]] = {
    "random": {},
    "heuristic": {"announce": _mode},
    "pimc": {"samples": _count, "auction": _count, "bonus_samples": _count, "announce": _mode},
    "dd": {"announce": _mode},
    "expert": {
        "samples": _count,
        "auction": _count,
        "bonus_samples": _count,
        "announce": _mode,
        "infer": _weight,
        "calls": _weight,
        "endgame": _tricks,
        "depth": _count,
        "worlds": _count,
    },
}
"""The options each bot's spec takes, each with the reader of its value
(``reader(bot, key, value)``, raising :class:`BotSpecError`)."""


def parse_spec(spec: str) -> tuple[str, dict[str, object]]:
    """The bot a spec names and its options, read and checked: ``NAME`` or
    ``NAME:KEY=VALUE,...``; raises a one-line :class:`BotSpecError`.

    >>> parse_spec("pimc:samples=5,announce=none")
    ('pimc', {'samples': 5, 'announce': 'none'})
    >>> parse_spec("dd:announce=some")
    Traceback (most recent call last):
    ...
    kosolve.play.player.BotSpecError: dd: announce must be all or none, not 'some'
    """
    name, _, rest = spec.partition(":")
    if name not in BOTS:
        raise BotSpecError(f"{spec!r}: no bot of that name (one of {', '.join(BOTS)}, or exec:COMMAND)")
    allowed = SPEC_OPTIONS[name]
    options: dict[str, object] = {}
    for part in filter(None, rest.split(",")):
        key, equals, value = part.partition("=")
        if key not in allowed:
            takes = f"it takes {', '.join(allowed)}" if allowed else "it takes none"
            raise BotSpecError(f"{name}: no option {key!r} ({takes})")
        if not equals:
            raise BotSpecError(f"{name}: {key} needs a value ({key}=VALUE)")
        if key in options:
            raise BotSpecError(f"{name}: {key} given twice")
        options[key] = allowed[key](name, key, value)
    return name, options


def make_bot(
    spec: str, rules: Rules = DEFAULT_RULES, analyser: Analyser | None = None, move_time: float = DEFAULT_MOVE_TIME
) -> Bot:
    """The bot a spec names: ``NAME`` or ``NAME:KEY=VALUE,...``
    (:func:`parse_spec`, the options of :data:`SPEC_OPTIONS`), e.g.
    ``pimc:samples=50`` or ``heuristic:announce=none``, or
    ``exec:COMMAND ARGS``, a program that speaks the protocol with
    ``move_time`` seconds a decision.  A bot that searches (``pimc``,
    ``dd``) uses ``analyser``'s tables when given, so that many bots share
    one bounded set (one search at a time: they are not for two threads);
    else each makes its own.

    >>> make_bot("pimc:samples=5,auction=2").samples
    5
    >>> make_bot("pimc:sample=5")
    Traceback (most recent call last):
    ...
    kosolve.play.player.BotSpecError: pimc: no option 'sample' (it takes samples, auction, bonus_samples, announce)
    """
    if spec.startswith(EXEC_PREFIX):
        return ExecBot(spec[len(EXEC_PREFIX) :], move_time, rules)
    name, options = parse_spec(spec)
    if name in ("pimc", "dd", "expert"):
        return BOTS[name](rules=rules, analyser=analyser, **options)
    return BOTS[name](**options)


__all__ = [
    "ANNOUNCE_MODES",
    "BOTS",
    "SPEC_OPTIONS",
    "AnnounceRule",
    "DoubleDummyBot",
    "ExpertBot",
    "HeuristicBot",
    "KindBot",
    "PimcBot",
    "RandomBot",
    "Searching",
    "SeatBot",
    "make_bot",
    "parse_spec",
]
