"""The bots' announcements and Kontras (docs/bots.md): the bots that see
only their seat announce and say Kontra the same whatever the hidden
cards; a bot against itself nets 0 over a duplicate pair with the
announcements and Kontra on; ``dd`` never makes an announcement that
fails and says Kontra on one that does; ``announce=none`` never
announces; ``random`` answers the Kontra decisions too; specs are read."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from kosolve.dealing import deal_as_dealt
from kosolve.model.cards import PAGAT
from kosolve.model.dealt import Dealt
from kosolve.model.game import Rules
from kosolve.play.arena import Match, play_deal, play_game
from kosolve.play.bots import DoubleDummyBot, HeuristicBot, PimcBot, RandomBot, make_bot, parse_spec
from kosolve.play.game import DONE, Game, Move
from kosolve.play.player import Bot, BotSpecError
from kosolve.sampling.worlds import random_worlds

BOTH = Rules(defender_announcements=True, kontra=True)
FAST_PIMC = "pimc:samples=2,auction=2,bonus_samples=1"

# The script of a game up to and through both rounds: the forehand declares
# a Dreiblatt and announces the Pagat before the talon, the dealer the Valat
# after it (each option by value; where it is not offered, done).
SCRIPT = (
    ("bid", "dreiblatt"),
    ("bid", "pass"),
    ("announce", "pagat"),
    ("announce", DONE),
    ("announce", DONE),
    ("kontra", DONE),
    ("take", None),
    ("lay_away", None),
    ("announce", "absolut"),
    ("announce", DONE),
    ("announce", "valat"),
    ("announce", DONE),
    ("kontra", DONE),
    ("kontra", DONE),
)


def scripted(dealt: Dealt) -> Game:
    """A game of ``dealt`` under both options driven by :data:`SCRIPT` up
    to the play (None: the first option)."""
    game = Game(dealt, BOTH)
    for kind, option in SCRIPT:
        if game.phase != kind:
            continue
        options = game.decision().options
        game.choose(options.index(option) if option in options else 0)
    return game


def replay(dealt: Dealt, moves: Sequence[Move], seat: int) -> Game:
    """``moves`` taken again in ``dealt`` by value, but for the other's
    lay-away, which ``seat`` never sees: the first of that world's."""
    game = Game(dealt, BOTH)
    for move in moves:
        options = game.decision().options
        hidden = move.kind == "lay_away" and move.seat != seat
        game.choose(0 if hidden else options.index(move.option))
    return game


def bots() -> list[Bot]:
    return [HeuristicBot(), PimcBot(samples=2, auction=2, bonus_samples=1, rules=BOTH), RandomBot()]


@pytest.mark.parametrize("seed", [0, pytest.param(1, marks=pytest.mark.slow), pytest.param(2, marks=pytest.mark.slow)])
def test_announcements_and_kontras_do_not_depend_on_the_hidden_cards(seed: int) -> None:
    """At each announcement and Kontra decision of the script, the other's
    hidden cards (and the talon while unseen) dealt anew in a way the
    deciding seat's knowledge allows give every seat bot the same answer."""
    dealt = deal_as_dealt(random.Random(seed))
    full = scripted(dealt)
    checked = 0
    for index, move in enumerate(full.moves):
        if move.kind not in ("announce", "kontra"):
            continue
        game = replay(dealt, full.moves[:index], move.seat)
        knows = game.knowledge(move.seat)
        worlds = [w for w in random_worlds(knows.auction, 20, seed + index, knows.talon) if isinstance(w, Dealt)]
        others = [w for w in worlds if w.held(1 - move.seat) != dealt.held(1 - move.seat)]
        if not others:
            continue
        again = replay(others[0], full.moves[:index], move.seat)
        assert again.knowledge(move.seat) == knows
        for bot in bots():
            choices = []
            for played in (game, again):
                bot.start(seed, move.seat)
                choices.append(bot.decide(played.decision()))
            assert choices[0] == choices[1], (type(bot).__name__, move)
        checked += 1
    assert checked >= 4


@pytest.mark.parametrize("spec", ["heuristic", FAST_PIMC, "dd", "random"])
def test_a_bot_against_itself_nets_zero_with_announcements_and_kontra(spec: str) -> None:
    for number in range(1, 3):
        record: dict[str, Any] = play_deal(
            Match(spec, spec, seed=2, rules=BOTH), deal_as_dealt(random.Random(number)), number
        )
        first, second = record["games"]
        assert {**first, "bots": None} == {**second, "bots": None}
        assert record["points"] == {"a": 0, "b": 0}


def dd_games(rules: Rules, deals: range, announce: str = "all") -> list[Game]:
    bot = make_bot(f"dd:announce={announce}", rules)
    games = []
    for number in deals:
        game, forfeit = play_game(deal_as_dealt(random.Random(number)), (bot, bot), ("dd", "dd"), number, rules)
        assert forfeit is None
        games.append(game)
    return games


@pytest.mark.slow
@pytest.mark.parametrize("rules", [Rules(), BOTH])
def test_dd_never_makes_an_announcement_that_fails(rules: Rules) -> None:
    """dd against dd: every announcement's settlement item goes to its
    announcer, and some are made."""
    announced = 0
    for game in dd_games(rules, range(1, 9)):
        settlement = game.settlement
        if settlement is None:
            continue
        for announcement in game.announcements:
            [item] = [i for i in settlement.items if i.name == announcement.what]
            assert item.to == announcement.by, (announcement, item)
            assert not announcement.kontra  # no announcement fails, so none is worth a Kontra
            announced += 1
    assert announced >= 3


def first_with(test: Callable[[Dealt], bool]) -> Dealt:
    return next(d for n in range(200) if test(d := deal_as_dealt(random.Random(n))))


def test_dd_says_kontra_on_a_failing_announcement() -> None:
    """The forehand declares and announces the Pagat, which the dealer
    holds: the dd dealer says Kontra on it (dd:announce=none does not)."""
    rules = Rules(kontra=True)
    dealt = first_with(lambda d: bool(d.held(1) >> PAGAT & 1))
    game = Game(dealt, rules)
    for option in ("dreiblatt", "pass", "pagat", DONE):
        game.choose(game.decision().options.index(option))
    decision = game.decision()
    assert (decision.kind, decision.seat, decision.options) == ("kontra", 1, (DONE, "pagat"))
    bot = DoubleDummyBot(rules)
    bot.start(0, 1)
    assert decision.options[bot.decide(decision, game)] == "pagat"
    assert decision.options[DoubleDummyBot(rules, announce="none").decide(decision, game)] == DONE


@pytest.mark.parametrize("spec", ["heuristic:announce=none", f"{FAST_PIMC},announce=none", "dd:announce=none"])
def test_announce_none_never_announces(spec: str) -> None:
    bot = make_bot(spec, BOTH)
    asked = 0
    for number in range(1, 4):
        game, forfeit = play_game(deal_as_dealt(random.Random(number)), (bot, bot), (spec, spec), number, BOTH)
        assert forfeit is None and not game.announcements
        asked += sum(m.kind == "announce" for m in game.moves)
        assert all(m.option == DONE for m in game.moves if m.kind in ("announce", "kontra"))
    assert asked >= 2


def test_random_says_kontra_too() -> None:
    """random picks among every option of the Kontra decisions too, and
    its games settle."""
    bot = make_bot("random", BOTH)
    kontras = 0
    for number in range(1, 11):
        game, forfeit = play_game(deal_as_dealt(random.Random(number)), (bot, bot), ("r", "r"), number, BOTH)
        assert forfeit is None and game.over
        kontras += sum(a.kontra for a in game.announcements)
        assert all(m.kind != "kontra" or m.option in (DONE, *(a.what for a in game.announcements)) for m in game.moves)
    assert kontras >= 1


def test_the_heuristic_bot_announces_with_a_big_hand() -> None:
    """heuristic announces something on some deals (after the talon), and
    heuristic:announce=none plays those deals with no announcement."""
    on, off = make_bot("heuristic"), make_bot("heuristic:announce=none")
    announced = 0
    for number in range(1, 41):
        dealt = deal_as_dealt(random.Random(number))
        game, _ = play_game(dealt, (on, on), ("h", "h"), number)
        quiet, _ = play_game(dealt, (off, off), ("h", "h"), number)
        assert not quiet.announcements
        assert all(a.when == "after" for a in game.announcements)
        announced += bool(game.announcements)
    assert announced >= 3


def test_specs() -> None:
    assert parse_spec("pimc:samples=5,announce=none") == ("pimc", {"samples": 5, "announce": "none"})
    assert parse_spec("heuristic:announce=all") == ("heuristic", {"announce": "all"})
    for spec, announces in [("dd", True), ("dd:announce=none", False), ("heuristic:announce=none", False)]:
        bot = make_bot(spec)
        assert isinstance(bot, DoubleDummyBot | HeuristicBot) and bot.announces is announces
    pimc = make_bot("pimc:announce=none,bonus_samples=2")
    assert isinstance(pimc, PimcBot) and not pimc.announces and pimc.bonus_samples == 2
    for spec, message in [
        ("pimc:announce=some", r"^pimc: announce must be all or none, not 'some'$"),
        ("heuristic:announce=", r"^heuristic: announce must be all or none, not ''$"),
        ("heuristic:samples=3", r"^heuristic: no option 'samples' \(it takes announce\)$"),
        ("random:announce=none", r"^random: no option 'announce' \(it takes none\)$"),
        ("pimc:bonus_samples=0", r"^pimc: bonus_samples must be at least 1, not 0$"),
        ("pimc:auction=two", r"^pimc: auction must be an integer, not 'two'$"),
        ("dd:announce", r"^dd: announce needs a value \(announce=VALUE\)$"),
        ("dd:announce=none,announce=all", r"^dd: announce given twice$"),
    ]:
        with pytest.raises(BotSpecError, match=message):
            make_bot(spec)
