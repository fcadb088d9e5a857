"""A whole game as decisions: every game ends, settled as the rules say
(worked out again here from docs/rules.md §2 and §5-§6, with the plain
card rules of the pure-Python reference), the options are legal and in
their canonical order, a choice out of range is refused, and a Solo skips
the talon."""

from __future__ import annotations

import itertools
import random
from typing import Any, Final

import pytest

from kosolve.dealing import deal_as_dealt
from kosolve.model.announcements import ANNOUNCEMENTS
from kosolve.model.auction import OPENING, auction_calls
from kosolve.model.cards import card_name, hand_cards, hand_names, mask_of
from kosolve.model.dealt import Dealt, lay_aways, talon_choices
from kosolve.model.game import DEFAULT_RULES, Rules
from kosolve.play.game import DONE, Game, GameError
from kosolve.tools.reference import SEATS, other, pile_thirds, trick_thirds, trick_winner

ALL_ON: Final = Rules(defender_announcements=True, kontra=True)
"""Every announcement the rules allow: the defender's and Kontra."""


def random_game(seed: int, rules: Rules = DEFAULT_RULES) -> Game:
    rng = random.Random(seed)
    game = Game(deal_as_dealt(random.Random(seed)), rules)
    while not game.over:
        decision = game.decision()
        game.choose(rng.randrange(len(decision.options)))
    return game


GAME_VALUES: Final = {"dreiblatt": 3, "zweiblatt": 6, "einblatt": 9, "solo": 12}
"""G of docs/rules.md §3.4."""
ANNOUNCED: Final = {
    # docs/rules.md §6: (after, before) for Dreiblatt, Zweiblatt, Einblatt, then Solo.
    "pagat": ((6, 12), (8, 16), (10, 20), 24),
    "uhu": ((7, 14), (10, 20), (12, 24), 28),
    "pelikan": ((8, 16), (12, 24), (14, 28), 32),
    "quapil": ((9, 18), (14, 28), (16, 32), 36),
    "absolut": ((1, 2), (2, 4), (3, 6), 9),
    "panzer": ((3, 6), (6, 12), (12, 24), 28),
    "without_trull": ((1, 2), (2, 4), (3, 6), 9),
    "without_kings": ((1, 2), (2, 4), (3, 6), 9),
}
BIRD_TRICKS: Final = {"pagat": ("I", 16), "uhu": ("II", 15), "pelikan": ("III", 14), "quapil": ("IV", 13)}
HELD: Final = {"trull": ({"Sk", "XXI", "I"}, 1), "four_kings": ({"HK", "DK", "SK", "CK"}, 1),
               "four_birds": ({"I", "II", "III", "IV"}, 3)}  # fmt: skip
SILENT_BIRD: Final = 3
WIN_THIRDS: Final = 107
ABSOLUT_THIRDS: Final = 119
PANZER_THIRDS: Final = 149

Settled = list[tuple[str, str, int]]
"""Items of a settlement: (name, to whom, game points)."""


def announced_value(what: str, contract: str, when: str | None) -> int:
    after_before = ANNOUNCED[what][("dreiblatt", "zweiblatt", "einblatt", "solo").index(contract)]
    if isinstance(after_before, int):
        return after_before
    return after_before[1] if when == "before" else after_before[0]


def settle_by_the_rules(dealt: Dealt, record: dict[str, Any]) -> tuple[int, Settled]:
    """The declarer's thirds and the settlement's items of a game played out
    under the default rules, from its record and the deal as dealt alone:
    the tricks' winners and values from the reference's card rules, the
    piles (each seat's discards, the declarer's lay-away, the talon cards
    he left to the defender), then the items of docs/rules.md §6.1."""
    contract, value = record["contract"], GAME_VALUES[record["contract"]]
    declarer = record["declarer"]
    defender = other(declarer)
    seat = {"forehand": 0, "dealer": 1}
    take, lay_away = set(record["take"] or []), set(record["lay_away"] or [])
    talon = [card_name(c) for c in dealt.talon]
    piles = {name: set(hand_names(dealt.laid(seat[name]))) for name in SEATS}
    piles[declarer] |= lay_away
    piles[defender] |= set(talon) - take
    thirds = {name: pile_thirds(piles[name]) for name in SEATS}
    play = record["play"]
    leader, winners, who_played = "forehand", [], []
    for number in range(16):
        led, reply = play[2 * number], play[2 * number + 1]
        who_played.append({led: leader, reply: other(leader)})
        leader = other(leader) if trick_winner(led, reply) else leader
        winners.append(leader)
        thirds[leader] += trick_thirds(led, reply)
    assert sum(thirds.values()) == 210
    made_thirds = thirds[declarer]
    wins = made_thirds >= WIN_THIRDS
    own = {name: set(hand_names(dealt.held(seat[name]) | dealt.laid(seat[name]))) for name in SEATS}
    own[declarer] |= take  # his cards at trick 1 and those he laid away himself
    announced = {a["what"]: a for a in record["announcements"]}
    achieved: dict[str, str | None] = {
        "absolut": declarer if made_thirds >= ABSOLUT_THIRDS else None,
        "panzer": declarer if made_thirds >= PANZER_THIRDS else None,
        "without_trull": declarer if wins and not own[declarer] & HELD["trull"][0] else None,
        "without_kings": declarer if wins and not own[declarer] & HELD["four_kings"][0] else None,
    }
    for bird, (card, trick) in BIRD_TRICKS.items():
        by = who_played[trick - 1].get(card)
        achieved[bird] = by if by is not None and winners[trick - 1] == by else None
    valat = winners[0] if len(set(winners)) == 1 else None
    items: Settled = []
    if "valat" in announced:
        by = announced["valat"]["by"]
        doubled = 2 if announced["valat"].get("kontra") else 1
        items.append(("valat", by if valat == by else other(by), value * 8 * doubled))
    elif valat is not None:
        items.append(("valat", valat, value * 4))
    else:
        items.append(("game", declarer if wins else defender, value))
    for what, achiever in achieved.items():
        if what in announced:
            by = announced[what]["by"]
            worth = announced_value(what, contract, announced[what].get("when"))
            worth *= 2 if announced[what].get("kontra") else 1
            items.append((what, by if achiever == by else other(by), worth))
        elif what in BIRD_TRICKS and achiever is not None:
            items.append((what, achiever, SILENT_BIRD))
    for name in SEATS:
        for bonus, (cards, worth) in HELD.items():
            if cards <= own[name]:
                items.append((bonus, name, worth))
    return made_thirds, items


def net(items: Settled) -> dict[str, int]:
    totals = dict.fromkeys(SEATS, 0)
    for _, to, points in items:
        totals[to] += points
        totals[other(to)] -= points
    return totals


@pytest.mark.parametrize("rules", [DEFAULT_RULES, ALL_ON], ids=["default", "all-on"])
@pytest.mark.parametrize("seed", range(40))
def test_random_games_end_settled_as_the_rules_say(seed: int, rules: Rules) -> None:
    game = random_game(seed, rules)
    record: dict[str, Any] = game.to_json()
    if game.contract is None:
        assert record["totals"] is None and game.deal is None
        assert game.calls[-1] == "pass"
        return
    assert len(record["play"]) == 32
    assert game.moves[0].kind == "bid"
    thirds, items = settle_by_the_rules(game.dealt, record)
    assert game.settlement is not None and game.settlement.declarer_thirds == thirds
    assert sorted((i["name"], i["to"], i["points"]) for i in record["settlement"]) == sorted(items)
    assert record["totals"] == net(items)
    assert game.points == (net(items)["forehand"], net(items)["dealer"])


def test_the_settlement_by_the_rules_covers_every_kind_of_item() -> None:
    """The random games above meet the game item, the Valat, the birds
    (silent and announced, made and failed), the declarer's announcements
    and the held bonuses: the check is not vacuous."""
    seen = set()
    for seed in range(40):
        game = random_game(seed)
        if game.contract is not None:
            seen |= {name for name, _, _ in settle_by_the_rules(game.dealt, game.to_json())[1]}
    assert {"game", "valat", "pagat", "trull", "four_kings"} <= seen
    assert len(seen & set(ANNOUNCED)) >= 5
    doubled = defended = 0
    for seed in range(40):
        game = random_game(seed, ALL_ON)
        doubled += sum(a.kontra for a in game.announcements)
        defended += sum(a.by != game.declarer for a in game.announcements)
    assert doubled >= 10 and defended >= 10


def test_the_options_come_in_their_canonical_order() -> None:
    dealt = deal_as_dealt(random.Random(11))
    game = Game(dealt)
    assert game.decision().options == tuple(auction_calls(OPENING))
    game.choose(game.decision().options.index("dreiblatt"))
    game.choose(0)  # the dealer passes: the forehand plays a Dreiblatt
    assert game.declarer == 0 and game.contract == "dreiblatt"
    announce = game.decision()
    assert announce.kind == "announce" and announce.options[0] == DONE
    assert list(announce.options[1:]) == [a for a in ANNOUNCEMENTS if a in announce.options]
    game.choose(0)
    take = game.decision()
    assert take.kind == "take" and take.options == talon_choices("dreiblatt", dealt.talon)
    game.choose(1)
    lay = game.decision()
    cards = dealt.held(0) | mask_of(take.options[1])  # type: ignore[arg-type]
    assert lay.kind == "lay_away" and lay.options == tuple(lay_aways(cards, 3))
    game.choose(0)
    game.choose(0)  # no announcement after the talon
    play = game.decision()
    assert play.kind == "play" and play.seat == 0
    assert list(play.options) == hand_cards(mask_of(game.position.legal_moves))  # type: ignore[union-attr]
    with pytest.raises(GameError, match="not one of the"):
        game.choose(len(play.options))


def test_a_solo_has_one_round_of_announcements_and_no_talon() -> None:
    game = Game(deal_as_dealt(random.Random(4)))
    game.choose(game.decision().options.index("solo"))
    game.choose(0)
    assert game.contract == "solo" and game.decision().kind == "announce"
    game.choose(game.decision().options.index("valat"))
    game.choose(0)
    assert game.decision().kind == "play" and game.take is None
    assert [(a.what, a.when) for a in game.announcements] == [("valat", None)]


def test_the_defender_announces_and_each_seat_doubles_in_its_step() -> None:
    """Under both rule options a round runs the declarer's announcements,
    the defender's (birds and the Valat only), the defender's Kontras on
    the declarer's announcements of the round, then the declarer's on the
    defender's; a Kontra doubles the announcement it names."""
    game = Game(deal_as_dealt(random.Random(11)), ALL_ON)
    game.choose(game.decision().options.index("dreiblatt"))
    game.choose(0)  # the dealer passes: the forehand plays a Dreiblatt
    steps = []

    def take(what: str) -> None:
        decision = game.decision()
        steps.append((decision.kind, decision.seat, what))
        game.choose(decision.options.index(what))

    take("pagat")
    take(DONE)
    defender = game.decision()
    assert defender.kind == "announce" and defender.seat == 1
    assert defender.options == (DONE, "uhu", "pelikan", "quapil", "valat")
    take("uhu")
    take(DONE)
    kontra = game.decision()
    assert (kontra.kind, kontra.seat, kontra.options) == ("kontra", 1, (DONE, "pagat"))
    take("pagat")  # the only Kontra: the step ends by itself
    answer = game.decision()
    assert (answer.kind, answer.seat, answer.options) == ("kontra", 0, (DONE, "uhu"))
    take(DONE)
    assert game.decision().kind == "take"
    assert [(a.by, a.what, a.when, a.kontra) for a in game.announcements] == [
        (0, "pagat", "before", True),
        (1, "uhu", "before", False),
    ]
    assert game.decision().knowledge.announcements == tuple(game.announcements)


def test_a_step_with_nothing_to_say_is_not_asked() -> None:
    """With Kontra on and nothing announced no Kontra is asked, and without
    the options no defender's announcement or Kontra ever is."""
    game = Game(deal_as_dealt(random.Random(11)), Rules(kontra=True))
    game.choose(game.decision().options.index("dreiblatt"))
    game.choose(0)
    game.choose(0)  # the declarer announces nothing
    assert game.decision().kind == "take"
    for seed in range(20):
        kinds = {(move.kind, move.seat == random_game(seed).declarer) for move in random_game(seed).moves}
        assert ("kontra", True) not in kinds and ("kontra", False) not in kinds
        assert ("announce", False) not in kinds


def test_the_knowledge_holds_no_hidden_card() -> None:
    """What a seat knows before the play names no card of the other's hand."""
    dealt = deal_as_dealt(random.Random(8))
    game = Game(dealt)
    knows = game.decision().knowledge
    data: dict[str, Any] = knows.to_json()
    assert data["talon"] is None
    shown = set(data["hand"]) | set(data["pile"]) | set(data["other"]["pile"])
    hidden = set(hand_names(dealt.held(1))) - set(data["other"]["pile"])
    assert not shown & hidden


def _face_down(name: str) -> bool:
    """A card that may be laid away face down: a plain suit card (hearts,
    diamonds, spades, clubs: the names HK to C7), not a king (docs/rules.md
    §3.3); the Sk is a tarock."""
    return name[0] in "HDSC" and name not in ("HK", "DK", "SK", "CK", "Sk")


def _talon_swapped(dealt: Dealt, seat: int) -> Dealt:
    """The same deal with every plain non-king talon card swapped, in
    place, for a face-down discard of ``seat``."""
    face_down = [c for c in hand_cards(dealt.discards[seat]) if _face_down(card_name(c))]
    talon, hands, personal, discards = list(dealt.talon), list(dealt.hands), list(dealt.personal), list(dealt.discards)
    for index, card in enumerate(dealt.talon):
        if not _face_down(card_name(card)) or not face_down:
            continue
        laid = face_down.pop()
        talon[index] = laid
        holder = hands if hands[seat] >> laid & 1 else personal
        holder[seat] = holder[seat] & ~(1 << laid) | 1 << card
        discards[seat] = discards[seat] & ~(1 << laid) | 1 << card
    return Dealt(tuple(talon), (hands[0], hands[1]), (personal[0], personal[1]), (discards[0], discards[1]))


@pytest.mark.parametrize("seed", range(6))
def test_in_a_solo_no_seat_learns_anything_of_the_talon(seed: int) -> None:
    """A Solo's talon goes face down to the defender unseen (docs/rules.md
    §3.5): swapping its cards for the defender's face-down discards
    changes nothing the declarer knows, and swapping them for the
    declarer's changes nothing the defender knows, at any decision of a
    game played alike in both."""
    dealt = deal_as_dealt(random.Random(seed))
    for declarer, swapped, watched in itertools.product((0, 1), (0, 1), (0, 1)):
        if swapped == watched:
            continue  # a seat knows its own discards
        other = _talon_swapped(dealt, swapped)
        assert other.talon != dealt.talon and other.held(0) == dealt.held(0) and other.held(1) == dealt.held(1)
        games = [Game(dealt, ALL_ON), Game(other, ALL_ON)]
        rng = random.Random(seed)
        while not games[0].over:
            decision = games[0].decision()
            if decision.kind == "bid":
                choice = decision.options.index("solo" if decision.seat == declarer else "pass")
            else:
                choice = rng.randrange(len(decision.options))
            assert games[0].knowledge(watched).to_json() == games[1].knowledge(watched).to_json()
            for game in games:
                game.choose(choice)
        assert games[0].contract == "solo" and games[0].declarer == declarer
