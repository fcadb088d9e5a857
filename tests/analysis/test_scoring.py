"""Settling played hands against docs/rules.md §5–§6.

Every expected figure below is worked out by hand in the comments from the
rule book; the deals are built so that the arithmetic stays short.  Card
values: kings and the trull 5, queens 4, cavaliers 3, jacks 2, the rest 1; a
pile of n cards with value sum S is worth 3·S − 2·n thirds; 210 in all.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest

from kosolve.analysis.scoring import Item, Outcome, Settlement, held_bonuses, outcome_of, score, settle
from kosolve.dealing import deal_bid
from kosolve.model.announcements import Announcement, AnnouncementError
from kosolve.model.cards import ALL_CARDS, mask_of, parse_hand
from kosolve.model.deal import Deal, deal_to_json
from kosolve.model.files import parse_deal
from kosolve.model.game import DEALER, DISCARD_VARIANTS, FOREHAND, SEATS, Rules, Seat
from kosolve.model.scoring import DEFAULT_TABLE, ScoringError, ScoringTable
from kosolve.render.scoring import scoring_table_markdown
from kosolve.render.text import Style, settlement_lines

F, D = FOREHAND, DEALER


def cards(names: str) -> list[str]:
    return names.split()


def whole_deal(
    hands: tuple[str, str],
    piles: tuple[str, str],
    play: list[str],
    *,
    contract: str = "dreiblatt",
    declarer: str = "forehand",
    announcements: list[dict[str, Any]] | None = None,
) -> Deal:
    """A whole game read like a deal file, so that the hands, the piles
    (all 54 cards) and the play are checked by the parser."""
    data: dict[str, Any] = {
        "version": 1,
        "contract": contract,
        "declarer": declarer,
        "hands": {"forehand": hands[0].split(), "dealer": hands[1].split()},
        "piles": {"forehand": piles[0].split(), "dealer": piles[1].split()},
        "play": play,
    }
    if announcements:
        data["announcements"] = announcements
    return parse_deal(data, "test.json")


def settled(deal: Deal, rules: Rules | None = None) -> Settlement:
    settlement = settle(deal) if rules is None else settle(deal, rules)
    forehand, dealer = settlement.totals
    assert forehand + dealer == 0
    return settlement


def lines(settlement: Settlement) -> list[tuple[str, Seat, int]]:
    return [(item.name, item.to, item.points) for item in settlement.items]


def said(by: str, what: str, when: str | None = "after", **more: Any) -> dict[str, Any]:
    announcement: dict[str, Any] = {"by": by, "what": what, **more}
    if when is not None:
        announcement["when"] = when
    return announcement


# GRAND: the forehand holds sixteen tarocks, the four birds among them, the
# dealer the sixteen court cards.  The forehand leads Sk, XXI … XI, then IV,
# III, II, I at tricks 13, 14, 15, 16; the dealer, without a tarock, throws
# his court cards.  The forehand wins every trick: a Valat, and every bird
# wins its own trick.  The 22 other cards, all worth 1, lie in the piles.
# Thirds: the dealer keeps only his pile, 11 cards worth 1: 3·11 − 2·11 = 11,
# so the forehand has 210 − 11 = 199.
# Held: forehand Sk XXI I (Trull) and I–IV (Four Birds); dealer the four kings.
GRAND_TAROCKS = cards("Sk XXI XX XIX XVIII XVII XVI XV XIV XIII XII XI IV III II I")
GRAND_COURTS = cards("HK HQ HC HJ DK DQ DC DJ SK SQ SC SJ CK CQ CC CJ")
GRAND_PILES = ("X IX VIII VII VI V H1 H2 H3 H4 D1", "D2 D3 D4 S10 S9 S8 S7 C10 C9 C8 C7")
GRAND_PLAY = [card for trick in zip(GRAND_TAROCKS, GRAND_COURTS, strict=True) for card in trick]


def grand(**options: Any) -> Deal:
    return whole_deal((" ".join(GRAND_TAROCKS), " ".join(GRAND_COURTS)), GRAND_PILES, GRAND_PLAY, **options)


# NO_TRULL: like GRAND, but the trull cards lie in the dealer's pile (talon
# cards he was left) and the forehand leads his birds first, at tricks 1–3,
# where they win no bonus.  He still takes every trick.
# Thirds: the dealer's pile is Sk XXI I (5 each) and 8 cards worth 1:
# S = 23, n = 11: 69 − 22 = 47, so the forehand has 210 − 47 = 163 (≥ 149).
# Held: nobody holds the Trull (trull cards in a pile are talon cards), the
# forehand lacks the I for Four Birds, the dealer has the four kings.
NO_TRULL_TAROCKS = cards("IV III II XX XIX XVIII XVII XVI XV XIV XIII XII XI X IX VIII")
NO_TRULL_PILES = ("VII VI V H1 H2 H3 H4 D1 D2 D3 D4", "Sk XXI I S10 S9 S8 S7 C10 C9 C8 C7")


def no_trull(**options: Any) -> Deal:
    play = [card for trick in zip(NO_TRULL_TAROCKS, GRAND_COURTS, strict=True) for card in trick]
    return whole_deal((" ".join(NO_TRULL_TAROCKS), " ".join(GRAND_COURTS)), NO_TRULL_PILES, play, **options)


# CLOSE: a game decided by a third.  The forehand declares and holds seven
# trumps, the I and eight low red cards; the dealer the high red cards,
# seven black cards and one more card.  The forehand leads a low red card
# at tricks 1, 3, … 15, which the dealer wins; the dealer leads a black card
# at tricks 2, 4, … 14, which the forehand (void) trumps.  At trick 16 the
# dealer leads his last card and the forehand plays his last.
# The forehand's seven tricks: SK+Sk 10, SQ+XXI 9, SC+XX 4, SJ+XIX 3,
# CK+XVIII 6, CQ+XVII 5, CC+XVI 4: S = 41 on 14 cards, 123 − 28 = 95 thirds;
# his pile, 11 cards worth 1, adds 11: 106 before trick 16.
# Held: forehand the Trull; dealer the four kings (HK DK in the red, SK CK).
CLOSE_LOW = cards("D4 D3 D2 D1 H4 H3 H2 H1")
CLOSE_HIGH = cards("DK DQ DC DJ HK HQ HC HJ")
CLOSE_BLACK = cards("SK SQ SC SJ CK CQ CC")
CLOSE_TRUMPS = cards("Sk XXI XX XIX XVIII XVII XVI")


def close(
    last: str,
    pile: str,
    *,
    forehand_pile: str = "VI VII VIII IX X XI XII XIII XIV XV S7",
    early_pagat: bool = False,
    **options: Any,
) -> Deal:
    """The CLOSE deal; the dealer's last card is ``last``, his pile
    ``pile``."""
    trumps = list(CLOSE_TRUMPS)
    final = "I"
    if early_pagat:
        trumps[0], final = "I", "Sk"
    play: list[str] = []
    for index in range(7):
        play += [CLOSE_LOW[index], CLOSE_HIGH[index], CLOSE_BLACK[index], trumps[index]]
    play += [CLOSE_LOW[7], CLOSE_HIGH[7], last, final]
    hands = (" ".join([*CLOSE_TRUMPS, "I", *CLOSE_LOW]), " ".join([*CLOSE_HIGH, *CLOSE_BLACK, last]))
    return whole_deal(hands, (forehand_pile, pile), play, **options)


def close_beaten(**options: Any) -> Deal:
    """Trick 16: the dealer leads V and beats the forehand's I.  The
    forehand stays at 106 thirds (35⅓ points, which rounds to 35)."""
    return close("V", "II III IV S8 S9 S10 C7 C8 C9 C10 CJ", **options)


def close_made(**options: Any) -> Deal:
    """Trick 16: the dealer leads S8, the forehand's I wins it: S8+I is
    3·6 − 4 = 14 thirds, 106 + 14 = 120 (40 points, ≥ 119: Absolut)."""
    return close("S8", "II III IV V S9 S10 C7 C8 C9 C10 CJ", **options)


def close_early(**options: Any) -> Deal:
    """As close_made, but the I trumps the SK at trick 2 and the Sk wins
    trick 16: the same cards change hands (SK+I, S8+Sk), 120 thirds."""
    return close("S8", "II III IV V S9 S10 C7 C8 C9 C10 CJ", early_pagat=True, **options)


RULES_MD_TABLE = """\
| bonus | silent | Dreiblatt after/before | Zweiblatt after/before | Einblatt after/before | Solo |
|---|---|---|---|---|---|
| Pagat ultimo | 3 | 6 / 12 | 8 / 16 | 10 / 20 | 24 |
| Uhu | 3 | 7 / 14 | 10 / 20 | 12 / 24 | 28 |
| Pelikan | 3 | 8 / 16 | 12 / 24 | 14 / 28 | 32 |
| Quapil | 3 | 9 / 18 | 14 / 28 | 16 / 32 | 36 |
| Absolut | – | 1 / 2 | 2 / 4 | 3 / 6 | 9 |
| Panzer | – | 3 / 6 | 6 / 12 | 12 / 24 | 28 |
| Without Trull | – | 1 / 2 | 2 / 4 | 3 / 6 | 9 |
| Without kings | – | 1 / 2 | 2 / 4 | 3 / 6 | 9 |
| Valat | G × 4 | G × 8 announced (any time) | | | |
| Trull held | 1 | | | | |
| Four Kings held | 1 | | | | |
| Four Birds held | 3 | | | | |"""
"""docs/rules.md §6, copied."""


def test_the_table_is_the_rule_book_s() -> None:
    assert scoring_table_markdown(DEFAULT_TABLE) == RULES_MD_TABLE


def test_a_table_needs_every_row() -> None:
    with pytest.raises(ScoringError, match="one row for each"):
        ScoringTable(rows=DEFAULT_TABLE.rows[1:])


def test_the_deals_hold_the_thirds_worked_out_by_hand() -> None:
    assert settled(grand()).declarer_thirds == 199
    assert settled(no_trull()).declarer_thirds == 163
    assert settled(close_beaten()).declarer_thirds == 106
    assert settled(close_made()).declarer_thirds == 120
    assert settled(close_early()).declarer_thirds == 120


def test_silent_valat_birds_and_held_bonuses() -> None:
    # Dreiblatt, G = 3.  Valat silent 3·4 = 12 instead of the game, four
    # silent birds 3 each, Trull 1 and Four Birds 3 to the forehand, Four
    # Kings 1 to the dealer: 12 + 12 + 1 + 3 − 1 = 27.
    settlement = settled(grand())
    assert lines(settlement) == [
        ("valat", F, 12),
        ("pagat", F, 3),
        ("uhu", F, 3),
        ("pelikan", F, 3),
        ("quapil", F, 3),
        ("trull", F, 1),
        ("four_birds", F, 3),
        ("four_kings", D, 1),
    ]
    assert settlement.totals == (27, -27)


def test_the_defender_makes_silent_valat_and_birds() -> None:
    # The same cards with the dealer declaring: the forehand, defending,
    # still takes every trick.  Silent bonuses go to whoever makes them, so
    # the items are the same: 27 to the forehand.
    settlement = settled(grand(declarer="dealer"))
    assert lines(settlement) == lines(settled(grand()))
    assert settlement.totals == (27, -27)


# Every cell of the table, made by the forehand as declarer.  Birds on GRAND
# (whose silent bird, 3, the announcement replaces: 27 − 3 + value), the
# declarer's goals on NO_TRULL (163 thirds ≥ 149, no trull card, no king;
# silent: valat 12, Four Kings −1: 11 + value).
CELLS = {
    # after / before for Dreiblatt, Zweiblatt, Einblatt, then Solo (docs/rules.md §6)
    "pagat": (6, 12, 8, 16, 10, 20, 24),
    "uhu": (7, 14, 10, 20, 12, 24, 28),
    "pelikan": (8, 16, 12, 24, 14, 28, 32),
    "quapil": (9, 18, 14, 28, 16, 32, 36),
    "absolut": (1, 2, 2, 4, 3, 6, 9),
    "panzer": (3, 6, 6, 12, 12, 24, 28),
    "without_trull": (1, 2, 2, 4, 3, 6, 9),
    "without_kings": (1, 2, 2, 4, 3, 6, 9),
}
COLUMNS = [(contract, when) for contract in ("dreiblatt", "zweiblatt", "einblatt") for when in ("after", "before")]
GAME_VALUE = {"dreiblatt": 3, "zweiblatt": 6, "einblatt": 9, "solo": 12}
"""docs/rules.md §3, copied."""


@pytest.mark.parametrize(
    ("what", "contract", "when", "value"),
    [
        (what, contract, when, value)
        for what, values in CELLS.items()
        for (contract, when), value in zip([*COLUMNS, ("solo", None)], values, strict=True)
    ],
)
def test_every_cell_of_the_table_made(what: str, contract: str, when: str | None, value: int) -> None:
    bird = what in ("pagat", "uhu", "pelikan", "quapil")
    deal = (grand if bird else no_trull)(contract=contract, announcements=[said("forehand", what, when)])
    settlement = settled(deal)
    [item] = [item for item in settlement.items if item.name == what]
    timing = f" {when}" if when else ""
    assert item == Item(what, F, value, f"{what} announced{timing}, made")
    g = GAME_VALUE[contract]
    # GRAND: Valat 4G, three other silent birds 9, Trull 1, Four Birds 3,
    # Four Kings −1.  NO_TRULL: Valat 4G, Four Kings −1.
    expected = 4 * g + 9 + 1 + 3 - 1 + value if bird else 4 * g - 1 + value
    assert settlement.totals[F] == expected


# Every row failed: the dealer declares a Zweiblatt (G = 6) on GRAND and
# announces after the talon; the forehand, defending, makes every bird and
# the Valat, the dealer has 11 thirds, holds the kings and loses.
@pytest.mark.parametrize(
    ("what", "value"),
    [("pagat", 8), ("uhu", 10), ("pelikan", 12), ("quapil", 14),
     ("absolut", 2), ("panzer", 6), ("without_trull", 2), ("without_kings", 2)],
)  # fmt: skip
def test_every_row_failed(what: str, value: int) -> None:
    settlement = settled(grand(contract="zweiblatt", declarer="dealer", announcements=[said("dealer", what)]))
    [item] = [item for item in settlement.items if item.name == what]
    assert item == Item(what, F, value, f"{what} announced after, failed")
    # Silent: Valat 6·4 = 24, birds 4·3 = 12, Trull 1, Four Birds 3, Four
    # Kings −1: 39 to the forehand.  An announced bird replaces its silent 3.
    silent = 3 if what in ("pagat", "uhu", "pelikan", "quapil") else 0
    assert settlement.totals[F] == 39 - silent + value


def test_solo_has_one_column_and_a_valat_of_four_times_twelve() -> None:
    # Solo, G = 12: silent Valat 48, Pagat announced 24, Uhu, Pelikan and
    # Quapil silent 3 each, Trull 1, Four Birds 3, Four Kings −1:
    # 48 + 24 + 9 + 1 + 3 − 1 = 84.
    settlement = settled(grand(contract="solo", announcements=[said("forehand", "pagat", None)]))
    assert lines(settlement)[:2] == [("valat", F, 48), ("pagat", F, 24)]
    assert settlement.items[1].why == "pagat announced, made"
    assert settlement.totals == (84, -84)


def test_an_announced_valat_replaces_the_game() -> None:
    # Dreiblatt: Valat announced 3·8 = 24 instead of the silent 12:
    # 27 − 12 + 24 = 39.  The timing does not change a Valat's value.
    for when in ("before", "after"):
        settlement = settled(grand(announcements=[said("forehand", "valat", when)]))
        assert lines(settlement)[0] == ("valat", F, 24)
        assert settlement.totals == (39, -39)


def test_an_announced_valat_that_fails_costs_eight_times_the_game() -> None:
    # close_made: the forehand wins the game with 40 points but the dealer
    # takes nine tricks.  His announced Valat costs 3·8 = 24 instead of the
    # game; the silent Pagat (trick 16) still scores 3, Trull 1, the
    # dealer's Four Kings 1: −24 + 3 + 1 − 1 = −21.
    settlement = settled(close_made(announcements=[said("forehand", "valat")]))
    assert lines(settlement) == [("valat", D, 24), ("pagat", F, 3), ("trull", F, 1), ("four_kings", D, 1)]
    assert settlement.totals == (-21, 21)


def test_a_valat_announced_by_the_loser_goes_to_the_maker() -> None:
    # The dealer declares a Dreiblatt on GRAND, announces the Valat and
    # takes no trick: 24 to the forehand, and no silent Valat besides:
    # 24 + 12 (birds) + 1 + 3 − 1 = 39.
    settlement = settled(grand(declarer="dealer", announcements=[said("dealer", "valat")]))
    assert lines(settlement)[0] == ("valat", F, 24)
    assert [item.name for item in settlement.items].count("valat") == 1
    assert settlement.totals == (39, -39)


def test_the_game_is_won_at_36_points() -> None:
    # close_made: 120 thirds = 40 points.  Game 3, Pagat silent 3 (the I
    # wins trick 16), Trull 1, the dealer's Four Kings 1: 3 + 3 + 1 − 1 = 6.
    settlement = settled(close_made())
    assert lines(settlement) == [("game", F, 3), ("pagat", F, 3), ("trull", F, 1), ("four_kings", D, 1)]
    assert settlement.items[0].why == "game won with 40 points"
    assert settlement.totals == (6, -6)


def test_35_and_a_third_loses_unless_the_option_accepts_it() -> None:
    # close_beaten: 106 thirds = 35⅓ points, short of 107: the game's 3 go
    # to the dealer; Trull 1 to the forehand, Four Kings 1 to the dealer:
    # −3 + 1 − 1 = −3.  With 106 accepted: 3 + 1 − 1 = 3.
    default = settled(close_beaten())
    assert lines(default) == [("game", D, 3), ("trull", F, 1), ("four_kings", D, 1)]
    assert default.items[0].why == "game lost with 35 points"
    assert default.totals == (-3, 3)
    accepting = settled(close_beaten(), Rules(win_thirds=106))
    assert lines(accepting)[0] == ("game", F, 3)
    assert accepting.totals == (3, -3)


def test_a_silent_bird_beaten_in_its_trick_costs_only_with_the_option() -> None:
    # close_beaten: the I is played at trick 16 and the dealer's V beats it.
    assert "pagat" not in [item.name for item in settled(close_beaten()).items]
    penalised = settled(close_beaten(), Rules(silent_bird_penalty=True))
    assert ("pagat", D, 3) in lines(penalised)
    assert penalised.totals == (-6, 6)  # −3 (game) + 1 − 1 − 3
    # A bird played before its trick is not beaten in it: no penalty.
    early = settled(close_early(), Rules(silent_bird_penalty=True))
    assert lines(early) == [("game", F, 3), ("trull", F, 1), ("four_kings", D, 1)]


@pytest.mark.parametrize(
    ("deal", "forehand"),
    [
        # Lost (106 thirds): game −3, Trull +1, Four Kings −1, Pagat −6.
        (close_beaten, -9),
        # Won (120 thirds), the I spent at trick 2: 3 + 1 − 1 − 6.
        (close_early, -3),
    ],
    ids=["beaten", "played early"],
)
def test_an_announced_bird_that_fails_goes_to_the_other_player(deal: Any, forehand: int) -> None:
    # Pagat announced after in a Dreiblatt: 6 to the dealer.
    settlement = settled(deal(announcements=[said("forehand", "pagat")]))
    assert ("pagat", D, 6) in lines(settlement)
    assert settlement.totals[F] == forehand


def test_absolut_made_and_panzer_failed_near_their_thresholds() -> None:
    # close_made: 120 thirds ≥ 119 makes Absolut (before: 2), < 149 fails
    # Panzer (before: 6, to the dealer): 6 + 2 − 6 = 2.
    announcements = [said("forehand", "absolut", "before"), said("forehand", "panzer", "before")]
    settlement = settled(close_made(announcements=announcements))
    assert ("absolut", F, 2) in lines(settlement)
    assert ("panzer", D, 6) in lines(settlement)
    assert settlement.totals == (2, -2)


def test_without_trull_and_kings_need_the_hand_and_the_win() -> None:
    # GRAND: the forehand holds the trull (Without Trull fails: 2 to the
    # dealer) and no king (Without kings made: 2): 27 − 2 + 2 = 27.
    settlement = settled(
        grand(announcements=[said("forehand", "without_trull", "before"), said("forehand", "without_kings", "before")])
    )
    assert ("without_trull", D, 2) in lines(settlement)
    assert ("without_kings", F, 2) in lines(settlement)
    assert settlement.totals == (27, -27)
    # close_beaten: no king in the forehand's hand, but he loses: fails.
    lost = settled(close_beaten(announcements=[said("forehand", "without_kings")]))
    assert ("without_kings", D, 1) in lines(lost)


def test_held_bonuses_count_the_hand_and_the_discards_but_no_talon_king_or_trull() -> None:
    # NO_TRULL: Sk XXI I lie in the dealer's pile: no Trull for anyone.
    assert "trull" not in [item.name for item in settled(no_trull()).items]
    # GRAND with the CK swapped into the dealer's pile for the C7 he throws
    # at trick 13: three kings in hand and a talon king are not Four Kings.
    courts = " ".join(GRAND_COURTS).replace("CK", "C7")
    piles = (GRAND_PILES[0], GRAND_PILES[1].replace("C7", "CK"))
    play = [{"CK": "C7"}.get(card, card) for card in GRAND_PLAY]
    settlement = settled(whole_deal((" ".join(GRAND_TAROCKS), courts), piles, play))
    assert "four_kings" not in [item.name for item in settlement.items]
    assert settlement.totals == (28, -28)  # 27 without the dealer's Four Kings
    # close_beaten with II III IV laid away by the forehand (swapped with
    # VI VII VIII, same values, still 106): I in hand and II–IV discarded
    # are Four Birds, 3 to the forehand: −3 + 1 − 1 + 3 = 0.
    birds = settled(
        close("V", "VI VII VIII S8 S9 S10 C7 C8 C9 C10 CJ", forehand_pile="II III IV IX X XI XII XIII XIV XV S7")
    )
    assert birds.declarer_thirds == 106
    assert ("four_birds", F, 3) in lines(birds)
    assert birds.totals == (0, 0)


def test_a_defender_announces_birds_only_with_the_option() -> None:
    deal = grand(announcements=[said("dealer", "pagat")])
    with pytest.raises(AnnouncementError, match=r"announcements\[0\]\.by: the dealer defends"):
        settle(deal)
    # With the option the dealer's Pagat fails: 6 to the forehand, which
    # replaces the silent 3: 27 − 3 + 6 = 30.
    settlement = settled(deal, Rules(defender_announcements=True))
    assert ("pagat", F, 6) in lines(settlement)
    assert settlement.totals == (30, -30)


def test_kontra_doubles_with_the_option() -> None:
    deal = grand(announcements=[said("forehand", "pagat", "before", kontra=True)])
    with pytest.raises(AnnouncementError, match="Kontra is off"):
        settle(deal)
    # Pagat before, 12, doubled: 24 instead of the silent 3: 27 − 3 + 24.
    settlement = settled(deal, Rules(kontra=True))
    assert ("pagat", F, 24) in lines(settlement)
    assert settlement.totals == (48, -48)


def test_announcements_built_in_code_are_checked_too() -> None:
    deal = grand()
    with pytest.raises(AnnouncementError, match=r"announcements\[0\]\.when: a Solo has no before or after"):
        settle(replace(deal, contract="solo", announcements=(Announcement(F, "pagat", "before"),)))
    with pytest.raises(
        AnnouncementError, match=r"announcements\[1\]\.what: uhu is already announced at announcements\[0\]"
    ):
        settle(replace(deal, announcements=(Announcement(F, "uhu", "after"), Announcement(F, "uhu", "before"))))


def test_only_a_whole_game_played_out_is_settled() -> None:
    deal = grand()
    with pytest.raises(ScoringError, match="the whole play: 31 of 32 cards"):
        settle(replace(deal, play=deal.play[:-1]))
    with pytest.raises(ScoringError, match="a whole game: 16 cards each at trick 1, and the piles"):
        settle(replace(deal, piles=None))
    # The last two tricks of GRAND as an ending: complete, but not a whole game.
    hands = (parse_hand(["II", "I"]), parse_hand(["CC", "CJ"]))
    ending = replace(deal, hands=hands, piles=(ALL_CARDS & ~(hands[0] | hands[1]), 0), play=deal.play[-4:])
    assert ending.position().is_over()
    with pytest.raises(ScoringError, match="a whole game: 16 cards each at trick 1"):
        settle(ending)


def test_json_and_text() -> None:
    settlement = settled(close_beaten(announcements=[said("forehand", "pagat")]))
    data = json.loads(json.dumps(settlement.to_json()))
    assert data["declarer"] == "forehand"
    assert data["declarer_thirds"] == 106 and data["declarer_points"] == 35
    assert data["items"][0] == {"name": "game", "to": "dealer", "points": 3, "why": "game lost with 35 points"}
    assert data["totals"] == {"forehand": -9, "dealer": 9}
    text = settlement_lines(settlement, Style(unicode=True))
    assert "pagat announced after, failed" in "\n".join(text)
    assert text[0] == "dreiblatt, declared by the forehand: 35⅓ points (106 thirds), counted as 35 (⅓ rounds down)"
    assert text[-1].strip() == "forehand -9, dealer +9"


def test_announcements_survive_the_deal_file() -> None:
    deal = grand(announcements=[said("forehand", "pagat", "before")])
    assert parse_deal(deal_to_json(deal), "copy") == deal


def test_the_outcome_of_a_play() -> None:
    # GRAND: the forehand takes all 16 tricks and every bird its own trick.
    assert outcome_of(grand()) == Outcome(199, F, ((F, None),) * 4)
    # close_beaten: the dealer's V beats the I at trick 16; the II, III, IV
    # lie in the dealer's pile.
    nobody = (None, None)
    assert outcome_of(close_beaten()) == Outcome(106, None, ((None, D), nobody, nobody, nobody))
    # close_early: the I won trick 2, which is not its trick.
    assert outcome_of(close_early()) == Outcome(120, None, (nobody,) * 4)


def test_an_outcome_not_played_can_be_scored() -> None:
    # GRAND's hands, had the forehand only 110 thirds and the Pagat:
    # game 3, Pagat announced before 12, Trull 1, Four Birds 3, Four Kings −1.
    deal = grand(announcements=[said("forehand", "pagat", "before")])
    nobody = (None, None)
    settlement = score(deal, Outcome(110, None, ((F, None), nobody, nobody, nobody)))
    assert settlement.totals == (18, -18)


@pytest.mark.parametrize("variant", DISCARD_VARIANTS)
def test_held_bonuses_are_exact_from_a_deal_as_dealt_and_from_its_play_file(variant: str) -> None:
    # Brute force from the deal as dealt: a player's own cards are the 16
    # he holds after the discard, the talon cards he took, and whatever he
    # laid in his own pile (discards, personal cards not picked up).
    rng = random.Random(DISCARD_VARIANTS.index(variant))
    found: set[str] = set()
    for _ in range(300):
        file = deal_bid(rng, discard=variant)
        assert file.exchange is not None and file.declarer is not None
        dealt, taken = file.dealt, mask_of(file.exchange.take)
        own = [dealt.held(seat) | dealt.laid(seat) for seat in SEATS]
        own[file.declarer] |= taken
        expected = [(seat, name) for seat in SEATS for name, cards in HELD_CARDS.items() if own[seat] & cards == cards]
        deal = file.play_deal()
        play_file = parse_deal(json.loads(json.dumps(deal_to_json(deal))), "deal.json", rules=Rules(discard=variant))
        assert play_file == deal
        assert deal.piles is not None
        assert held_bonuses(deal.hands, deal.piles, deal.laid) == expected
        found |= {name for _, name in expected}
    assert found == set(HELD_CARDS)


HELD_CARDS = {
    "trull": parse_hand(["Sk", "XXI", "I"]),
    "four_kings": parse_hand(["HK", "DK", "SK", "CK"]),
    "four_birds": parse_hand(["I", "II", "III", "IV"]),
}
"""The cards of each held bonus, written out here (docs/rules.md §5.3)."""
