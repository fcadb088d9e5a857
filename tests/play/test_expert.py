"""The ``expert`` bot (docs/bots.md, "expert"): its spec is read and bad
ones refused; with inference and the endgame off it is pimc, decision for
decision; it decides the same whatever the hidden cards, in the auction, in
the middle of the play and in the endgame; its endgame search takes the
card where few worlds are left."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from kosolve.dealing import deal_as_dealt
from kosolve.model.cards import KINGS, SUIT_MASKS, TAROCK, hand_cards, mask_of, suit_of
from kosolve.model.dealt import Dealt
from kosolve.play.bots import ExpertBot, HeuristicBot, PimcBot, make_bot, parse_spec
from kosolve.play.game import Game, Move
from kosolve.play.player import Bot, BotSpecError, ask
from kosolve.sampling.worlds import world_space


def fast_pimc() -> PimcBot:
    return PimcBot(samples=3, auction=2, bonus_samples=1)


def fast_expert(
    infer: float = 0.5, calls: float = 1.0, endgame: int = 4, worlds: int = 40, auction: int = 2
) -> ExpertBot:
    return ExpertBot(
        samples=3, auction=auction, bonus_samples=1, infer=infer, calls=calls, endgame=endgame, worlds=worlds
    )


def test_specs() -> None:
    bot = make_bot("expert:infer=0.3,calls=0.5,endgame=4,depth=3,worlds=12,samples=4")
    assert isinstance(bot, ExpertBot)
    assert (bot.inference.card_weight, bot.inference.call_weight) == (0.3, 0.5)
    assert (bot.endgame, bot.depth, bot.endgame_worlds, bot.samples) == (4, 3, 12, 4)
    assert parse_spec("expert:endgame=0") == ("expert", {"endgame": 0})
    for bad, message in [
        ("expert:infer=0", "infer must be above 0 and at most 1, not 0"),
        ("expert:calls=1.5", "calls must be above 0 and at most 1, not 1.5"),
        ("expert:infer=x", "infer must be a number, not 'x'"),
        ("expert:endgame=17", "endgame must be 0 to 16, not 17"),
        ("expert:depth=0", "depth must be at least 1, not 0"),
    ]:
        with pytest.raises(BotSpecError, match=message):
            make_bot(bad)


def play(dealt: Dealt, bots: Sequence[Bot], seed: int) -> Game:
    game = Game(dealt)
    for seat, bot in enumerate(bots):
        bot.start(seed, seat)
    while not game.over:
        ask(bots[game.decision().seat], game.decision(), game)
    return game


@pytest.mark.parametrize("seed", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_without_inference_and_endgame_it_is_pimc(seed: int) -> None:
    """``infer=1,calls=1,endgame=0``: the same worlds, the same sums, so the
    same game as pimc's, decision for decision, against the same other."""
    dealt = deal_as_dealt(random.Random(seed))
    plain = play(dealt, [fast_pimc(), HeuristicBot()], seed)
    expert = play(dealt, [fast_expert(infer=1, calls=1, endgame=0), HeuristicBot()], seed)
    assert [m.option for m in expert.moves] == [m.option for m in plain.moves]


def swapped(dealt: Dealt, seat: int, moves: Sequence[Move]) -> list[Dealt]:
    """Deals that differ from ``dealt`` in the other's hidden cards only: a
    plain card still in his hand swapped with a discard of his of the same
    suit (his follows stay legal and nothing the seat saw changes; the
    caller checks that the knowledge is the same)."""
    other = 1 - seat
    played = mask_of(m.option for m in moves if m.kind == "play" and isinstance(m.option, int))
    taken = mask_of(c for m in moves if m.kind == "take" and isinstance(m.option, tuple) for c in m.option)
    in_hand = dealt.held(other) & ~played & ~taken & ~KINGS & ~SUIT_MASKS[TAROCK]
    found = []
    for kept in hand_cards(in_hand):
        for discard in hand_cards(dealt.discards[other] & ~KINGS):
            if suit_of(discard) != suit_of(kept):
                continue
            discards = list(dealt.discards)
            discards[other] = dealt.discards[other] & ~(1 << discard) | 1 << kept
            found.append(Dealt(dealt.talon, dealt.hands, dealt.personal, (discards[0], discards[1]), dealt.picked_up))
    return found


def replay(dealt: Dealt, moves: Sequence[Move], seat: int) -> Game | None:
    """``moves`` taken again in ``dealt`` by value (the other's lay-away,
    which ``seat`` never sees, as it was where it is legal); None where a
    move is not legal there."""
    game = Game(dealt)
    for move in moves:
        options = game.decision().options
        if move.option not in options:
            return None
        game.choose(options.index(move.option))
    return game


@pytest.mark.parametrize("seed", [3, pytest.param(4, marks=pytest.mark.slow)])
def test_decisions_do_not_depend_on_the_hidden_cards(seed: int) -> None:
    """At every decision of the expert's seat in a game against pimc, the
    other's hidden cards changed in a way the seat's knowledge allows give
    the same answer: the auction, the talon, the announcements, the
    weighted middle of the play and the endgame search alike."""
    dealt = deal_as_dealt(random.Random(seed))
    expert = fast_expert(calls=0.25, worlds=60)
    full = play(dealt, [expert, fast_pimc()], seed)
    kinds = set()
    for index, move in enumerate(full.moves):
        if move.seat != 0 or move.kind == "lay_away":
            continue
        game = replay(dealt, full.moves[:index], 0)
        assert game is not None
        knows = game.knowledge(0)
        for world in swapped(dealt, 0, full.moves[:index]):
            again = replay(world, full.moves[:index], 0)
            if again is None or again.knowledge(0) != knows:
                continue
            choices = []
            for played in (game, again):
                expert.start(seed, 0)
                choices.append(expert.decide(played.decision()))
            assert choices[0] == choices[1], (move, index)
            kinds.add(move.kind)
            break
    assert "play" in kinds and "bid" in kinds, kinds


def test_the_endgame_search_takes_the_last_cards() -> None:
    """The endgame search takes the card exactly when at most ``endgame``
    tricks are left and the view allows at most ``worlds`` worlds, which in
    the last tricks of a game it does."""
    searched = 0
    for seed in range(5, 8):
        dealt = deal_as_dealt(random.Random(seed))
        expert = fast_expert(endgame=3, worlds=200)
        game = play(dealt, [expert, HeuristicBot()], seed)
        for index, move in enumerate(game.moves):
            if move.seat != 0 or move.kind != "play":
                continue
            before = replay(dealt, game.moves[:index], 0)
            assert before is not None
            view = before.decision().knowledge.seat_view
            assert view is not None
            ending = expert._ending(view)
            left = 16 - len(view.play) // 2
            assert (ending is not None) == (left <= 3 and world_space(view).worlds <= 200)
            searched += ending is not None
    assert searched >= 6


def test_the_auction_worlds_follow_the_other_s_calls() -> None:
    """With ``calls`` below 1 the dealer's worlds, and the contract means
    drawn from them, are worked out again once the forehand has called:
    the same means as a fresh bot's that knows only that call, and worlds
    in which the forehand's Zweiblatt fits his hand more often than in pimc's."""
    fitting = {"expert": 0, "pimc": 0}
    for seed in range(3):
        dealt = deal_as_dealt(random.Random(seed))
        game = Game(dealt)
        before = game.knowledge(1)
        game.choose(game.decision().options.index("zweiblatt"))
        after = game.knowledge(1)
        expert = fast_expert(calls=0.05, auction=6)
        expert.start(seed, 1)
        expert._contract_means(before)
        fresh = fast_expert(calls=0.05, auction=6)
        fresh.start(seed, 1)
        assert expert._contract_means(after) == fresh._contract_means(after)
        plain = PimcBot(auction=6)
        plain.start(seed, 1)
        for name, bot in (("expert", expert), ("pimc", plain)):
            worlds = bot._worlds(after, 1)
            fitting[name] += sum(not expert.inference.call_misses(world, 0, after.calls) for world in worlds)
    assert fitting["expert"] > fitting["pimc"], fitting
