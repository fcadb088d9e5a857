"""The seat view file: it reads back as written, refuses what breaks the
format in one line naming the field, and is made from deals as the player
saw them."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from support import EXAMPLES
from support.views import played_deal, random_view

from kosolve.model.cards import KINGS, SUIT_MASKS, TAROCK, parse_hand
from kosolve.model.files import load_deal, load_view, read_view
from kosolve.model.game import DEALER, FOREHAND
from kosolve.model.view import SEEN_IN_PILES, SeatViewError, ViewError, parse_view, view_of, view_to_json

VIEW = json.loads((EXAMPLES / "views" / "trick4.json").read_text())
AUCTION = json.loads((EXAMPLES / "views" / "auction.json").read_text())


def test_views_of_real_deals_read_back_as_written() -> None:
    rng = random.Random(1)
    for _ in range(200):
        view, _ = random_view(rng)
        assert parse_view(view_to_json(view), "copy") == view
        assert parse_view(json.loads(json.dumps(view_to_json(view))), "copy") == view


def test_the_play_knows_who_played_each_card_and_who_is_to_move() -> None:
    view = load_view(EXAMPLES / "views" / "trick4.json")
    seats = [p.seat for p in view.played()]
    assert seats == [FOREHAND, DEALER, FOREHAND, DEALER, DEALER, FOREHAND, DEALER]
    assert view.to_move == FOREHAND
    assert view.played_by(DEALER) == parse_hand(["D2", "XX", "H2", "H4"])
    assert view.other_pile_size == 12 and not view.before_auction
    auction = parse_view(AUCTION, "auction")
    assert auction.before_auction and auction.to_move is None and auction.other_pile_size == 8


def with_(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    data = dict(base)
    for key, value in changes.items():
        if value is None:
            data.pop(key)
        else:
            data[key] = value
    return data


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "v.json: expected a JSON object (a seat view), got an array"),
        (with_(VIEW, hand=None), "v.json: hand: required key missing"),
        (with_(VIEW, declarer=None), "v.json: declarer: required key missing (a view with a contract names"),
        (with_(VIEW, contract="grand"), "v.json: contract: unknown contract 'grand'"),
        (with_(VIEW, hand=[*VIEW["hand"][:15], "HK"]), "v.json: hand[15]: HK is also at hand[10]"),
        (with_(VIEW, hand=[*VIEW["hand"][:15], "H10"]), "v.json: hand[15]: unknown card 'H10' (did you mean H1?)"),
        (with_(VIEW, other={"pile": ["HK"]}), "v.json: other.pile[0]: HK is also at hand[10]"),
        (with_(VIEW, other={"hand": []}), "v.json: other.hand: unknown key (other has pile and holds)"),
        (with_(VIEW, other=[]), "v.json: other: expected an object with pile and holds, got an array"),
        (with_(VIEW, play=["DK", "DK"]), "v.json: play[1]: trick 1: DK was already played at play[0]"),
        (with_(VIEW, play=["DK"] * 40), "v.json: play: 40 cards played, but a game has 32"),
        (with_(VIEW, announcements=[{"by": "dealer", "what": "absolut", "when": "after"}]), "announcements[0]"),
        (with_(AUCTION, play=[]), "v.json: play: a view before the auction (no contract) has no declarer"),
        (with_(AUCTION, other={"pile": ["HQ"]}), "other.pile: HQ: before the auction only tarocks laid away"),
        (with_(AUCTION, other={"holds": ["HQ"]}), "other.holds: before the auction no card of the other's is seen"),
        (with_(AUCTION, pile=AUCTION["pile"][:7]), "v.json: pile: 7 cards (the pile before the auction holds 8)"),
    ],
)
def test_bad_views_are_refused_in_one_line(data: Any, message: str) -> None:
    with pytest.raises(ViewError) as caught:
        parse_view(data, "v.json")
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_the_file_readers_refuse_as_the_deal_readers_do(tmp_path: Path) -> None:
    with pytest.raises(ViewError, match=r"^<stdin>: version: key given twice$"):
        read_view(io.BytesIO(b'{"version": 1, "version": 1}'), "<stdin>")
    (tmp_path / "v.json").write_text("{")
    with pytest.raises(ViewError, match="broken JSON"):
        load_view(tmp_path / "v.json")


def test_a_view_sees_what_lies_face_up_and_what_a_deal_as_dealt_shows() -> None:
    rng = random.Random(5)
    for _ in range(50):
        deal, taken = played_deal(rng, 0)
        assert deal.piles is not None and deal.laid is not None
        declarer, defender = deal.declarer, 1 - deal.declarer
        plain = view_of(deal.__class__(deal.contract, deal.declarer, deal.hands, deal.piles), declarer)
        if deal.contract == "solo":
            # Nobody sees a Solo's talon (tests/sampling/test_solo_talon.py).
            solo = view_of(deal, declarer)
            assert solo.talon_unseen == 6 and solo.other_pile == deal.laid[defender] & SUIT_MASKS[TAROCK]
            assert view_of(deal, defender).pile == deal.laid[defender]
            assert (plain.talon_unseen == 6 and plain.other_pile == 0) or plain.talon_unseen == 0
            continue
        assert plain.other_pile == deal.piles[defender] & SEEN_IN_PILES
        known = view_of(deal, declarer, taken=taken)
        # The declarer saw the talon cards he left to the defender.
        assert known.other_pile == plain.other_pile | deal.piles[defender] & ~deal.laid[defender]
        seen_by_defender = view_of(deal, defender, taken=taken)
        assert seen_by_defender.other_holds == taken & ~seen_by_defender.other_pile
        assert not seen_by_defender.other_pile & ~(SUIT_MASKS[TAROCK] | KINGS)


def test_a_deal_that_gives_no_view_is_refused() -> None:
    with pytest.raises(SeatViewError, match="starts at trick 13"):
        view_of(load_deal(EXAMPLES / "ending.json"), FOREHAND)
    with pytest.raises(SeatViewError, match="beyond the play"):
        view_of(load_deal(EXAMPLES / "played.json"), FOREHAND, at=8)
