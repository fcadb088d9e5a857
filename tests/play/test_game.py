"""A whole game as decisions: every game ends and settles zero-sum, the
options are legal and in their canonical order, a choice out of range is
refused, and a Solo skips the talon."""

from __future__ import annotations

import random
from typing import Any

import pytest

from kosolve.analysis.par import OPENING, auction_calls
from kosolve.model.announcements import ANNOUNCEMENTS
from kosolve.model.cards import hand_cards, hand_names, mask_of
from kosolve.model.dealt import lay_aways, talon_choices
from kosolve.play.game import DONE, Game, GameError
from kosolve.tools.dealing import deal_as_dealt


def random_game(seed: int) -> Game:
    rng = random.Random(seed)
    game = Game(deal_as_dealt(random.Random(seed)))
    while not game.over:
        decision = game.decision()
        game.choose(rng.randrange(len(decision.options)))
    return game


@pytest.mark.parametrize("seed", range(40))
def test_random_games_end_and_settle_zero_sum(seed: int) -> None:
    game = random_game(seed)
    record: dict[str, Any] = game.to_json()
    if game.contract is None:
        assert record["totals"] is None and game.deal is None
        assert game.calls[-1] == "pass"
        return
    assert game.settlement is not None
    assert sum(game.settlement.totals) == 0
    assert len(record["play"]) == 32
    assert game.moves[0].kind == "bid"


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
