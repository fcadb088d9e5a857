"""The decisions before the play (kosolve.review.choices): each option's
mean over the worlds of the decider's knowledge equals the same worlds
valued by straightforward library calls (the worlds ``kosolve odds`` draws
for the view before the auction, the exchange table's best row, the net
score); the double-dummy side equals the exchange table of the deal as
dealt; the figures do not depend on the jobs; a Kontra on an announcement
that cannot succeed is judged right; a play file has none."""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from dataclasses import replace

import pytest

from kosolve.analysis.exchange import declarer_rows, exchange_table
from kosolve.analysis.netscore import net_score
from kosolve.analysis.solving import new_solver
from kosolve.dealing import deal_as_dealt
from kosolve.engine import ScoreSolver
from kosolve.model.announcements import Announcement
from kosolve.model.cards import PAGAT, hand_names, mask_of
from kosolve.model.dealt import Dealt, Exchange, lay_aways
from kosolve.model.dealt_file import DealtFile
from kosolve.model.game import CONTRACTS, DEFAULT_RULES, FOREHAND, Rules, Seat
from kosolve.model.view import auction_view
from kosolve.play.game import Game
from kosolve.review.choices import KONTRA, NO_KONTRA, NOTHING, PASS
from kosolve.review.judging import review
from kosolve.review.results import DecisionJudgement, Review
from kosolve.sampling.odds import ContractValue, odds
from kosolve.sampling.worlds import sample_worlds

SAMPLES = 3
SOLVER = new_solver()
SCORER = ScoreSolver()


@functools.cache
def played(seed: int, contract: str, announce: tuple[str, ...] = (), *, bidder: Seat = FOREHAND) -> DealtFile:
    """A game as dealt by seed ``seed``: ``bidder`` bids ``contract`` (the
    other passes), announces ``announce`` before the talon (or in a Solo's
    round), takes the first talon choice and lay-away, then plays
    random legal cards."""
    rng = random.Random(seed)
    game = Game(deal_as_dealt(random.Random(seed)))
    todo = list(announce)
    while not game.over:
        decision = game.decision()
        options = decision.options
        if decision.kind == "bid":
            want = contract if decision.seat == bidder else "pass"
            choice = options.index(want) if want in options else options.index("pass")
        elif decision.kind == "announce":
            here = [a for a in todo if a in options]
            choice = options.index(here[0]) if here else 0
            if here:
                todo.remove(here[0])
        elif decision.kind == "play":
            choice = rng.randrange(len(options))
        else:
            choice = 0
        game.choose(choice)
    file = game.dealt_file
    assert file is not None and file.contract == contract and file.declarer == bidder
    return file


@functools.cache
def reviewed(
    file: DealtFile, samples: int = SAMPLES, jobs: int = 1, rules: Rules = DEFAULT_RULES, seed: int = 0
) -> Review:
    # The cards are not the point here: only the last few are judged.
    return review(
        file, samples=2, seed=seed, jobs=jobs, start=28, rules=rules, before_play=True, decision_samples=samples
    )


def value(
    dealt: Dealt, file: DealtFile, contract: str, exchange: Exchange, announcements: Sequence[Announcement] = ()
) -> int:
    assert file.declarer is not None
    deal = dealt.play_deal(contract, file.declarer, exchange, announcements=tuple(announcements))
    return net_score(deal, solver=SCORER, with_points_line=False, with_line=False).score


def best_exchange(dealt: Dealt, declarer: Seat, contract: str, take: tuple[int, ...] | None = None) -> Exchange:
    rows = declarer_rows(dealt, declarer, solver=SOLVER)
    rows = tuple(r for r in rows if r.contract == contract and (take is None or r.take == take))
    return max(rows, key=lambda r: (r.game_points, r.thirds)).exchange


def by_kind(decisions: tuple[DecisionJudgement, ...], kind: str) -> list[DecisionJudgement]:
    return [d for d in decisions if d.kind == kind]


def test_the_bid_is_valued_in_the_worlds_kosolve_odds_draws() -> None:
    file = played(3, "dreiblatt", ("pagat",))
    assert file.declarer is not None and file.contract is not None
    result = reviewed(file)
    bid = result.decisions[0]
    assert (bid.kind, bid.choice, bid.samples, bid.seed) == ("bid", "dreiblatt", SAMPLES, 0)
    view = auction_view(file.dealt, file.declarer)
    worlds = [w for w in sample_worlds(view, SAMPLES, 0) if isinstance(w, Dealt)]
    # The same worlds as kosolve odds from the view: its contracts' thirds are their best rows'.
    seen = odds(view, SAMPLES, 0, jobs=1)
    for world, contracts in zip(worlds, seen.values, strict=True):
        rows = declarer_rows(world, file.declarer, solver=SOLVER)
        assert isinstance(contracts, tuple)
        for contract, found in zip(CONTRACTS, contracts, strict=True):
            assert isinstance(found, ContractValue)
            best = max((r for r in rows if r.contract == contract), key=lambda r: (r.game_points, r.thirds))
            assert found.thirds == best.thirds
    means = {o.option: o.mean_points for o in bid.options}
    assert means[PASS] == 0
    for contract in CONTRACTS:
        each = [value(w, file, contract, best_exchange(w, file.declarer, contract)) for w in worlds]
        assert means[contract] == pytest.approx(sum(each) / len(each))
    table = exchange_table(file.dealt, solver=SOLVER)
    for option in bid.options[1:]:
        exchange = table.best(file.declarer, option.option).exchange
        assert option.dd_points == value(file.dealt, file, option.option, exchange)


def test_the_rounds_before_and_after_the_talon() -> None:
    file = played(3, "dreiblatt", ("pagat",))
    assert file.declarer is not None and file.contract is not None and file.exchange is not None
    result = reviewed(file)
    before, after = by_kind(result.decisions, "announce")
    assert (before.round, before.choice, after.round, after.choice) == ("before", "pagat", "after", NOTHING)
    options = [o.option for o in before.options]
    assert options[:2] == ["pagat", NOTHING] and "pagat uhu" in options and "pagat absolut" in options
    view = auction_view(file.dealt, file.declarer)
    worlds = [w for w in sample_worlds(view, SAMPLES, 0) if isinstance(w, Dealt)]
    for option in before.options:
        said = [] if option.option == NOTHING else option.option.split()
        announced = [Announcement(file.declarer, what, "before") for what in said]
        each = [
            value(w, file, file.contract, best_exchange(w, file.declarer, file.contract), announced) for w in worlds
        ]
        assert option.mean_points == pytest.approx(sum(each) / len(each)), option.option
    # After the talon the declarer's own exchange is made: valued in the worlds with the talon exposed.
    talon_worlds = [w for w in sample_worlds(view, SAMPLES, 0, file.dealt.talon) if isinstance(w, Dealt)]
    made = [Announcement(file.declarer, "pagat", "before")]
    for option in after.options[:3]:
        said = [] if option.option == NOTHING else option.option.split()
        announced = made + [Announcement(file.declarer, what, "after") for what in said]
        each = [value(w, file, file.contract, file.exchange, announced) for w in talon_worlds]
        assert option.mean_points == pytest.approx(sum(each) / len(each)), option.option
        assert option.dd_points == value(file.dealt, file, file.contract, file.exchange, announced)


def test_the_talon_choice_and_the_lay_away_follow_the_exchange_table() -> None:
    file = played(2, "zweiblatt")
    assert file.declarer is not None and file.contract is not None and file.exchange is not None
    result = reviewed(file)
    (take,) = by_kind(result.decisions, "take")
    (laid,) = by_kind(result.decisions, "lay_away")
    rows = exchange_table(file.dealt, solver=SOLVER).rows_of(file.declarer, file.contract)
    assert [o.option for o in take.options] == [" ".join(r.to_json()["take"]) for r in rows]  # type: ignore[arg-type]
    view = auction_view(file.dealt, file.declarer)
    worlds = [w for w in sample_worlds(view, SAMPLES, 0, file.dealt.talon) if isinstance(w, Dealt)]
    for option, row in zip(take.options, rows, strict=True):
        assert option.dd_points == value(file.dealt, file, file.contract, row.exchange)
        each = [value(w, file, file.contract, best_exchange(w, file.declarer, file.contract, row.take)) for w in worlds]
        assert option.mean_points == pytest.approx(sum(each) / len(each))
    # The talon choices differ here, double dummy and by the mean.
    assert len({o.dd_points for o in take.options}) > 1 or len({o.mean_points for o in take.options}) > 1
    # Every legal lay-away of the take made (a Zweiblatt's are few enough), each valued as laid.
    cards = file.dealt.held(file.declarer) | mask_of(file.exchange.take)
    legal = list(lay_aways(cards, len(file.exchange.take)))
    assert len(laid.options) == min(len(legal), 12)
    for option in laid.options[:3]:
        hand = next(h for h in legal if " ".join(_names(h)) == option.option)
        exchange = Exchange(file.exchange.take, hand)
        each = [value(w, file, file.contract, exchange) for w in worlds]
        assert option.mean_points == pytest.approx(sum(each) / len(each))
        assert option.dd_points == value(file.dealt, file, file.contract, exchange)
    for decision in result.decisions:
        assert decision.dd_loss_points == max(o.dd_points for o in decision.options) - next(
            o.dd_points for o in decision.options if o.option == decision.choice
        )


def _names(hand: int) -> list[str]:
    return hand_names(hand)


def test_a_solo_has_one_round_and_no_exchange() -> None:
    file = played(11, "solo")
    result = reviewed(file, samples=3)
    assert [(d.kind, d.round) for d in result.decisions] == [("bid", None), ("announce", None)]


def test_the_figures_do_not_depend_on_the_jobs() -> None:
    file = played(3, "dreiblatt", ("pagat",))
    one, two = reviewed(file, samples=2, jobs=1), reviewed(file, samples=2, jobs=2)
    assert one.decisions == two.decisions and one.players == two.players


def failing_pagat(kontra: bool) -> DealtFile:
    """The forehand declares and announces a Pagat ultimo before the talon
    though the dealer holds the I: it fails in every world the dealer can
    imagine, so his Kontra gains the announcement's value in each."""
    for seed in range(100):
        dealt = deal_as_dealt(random.Random(seed))
        if dealt.held(1 - FOREHAND) >> PAGAT & 1:
            file = played(seed, "dreiblatt", ("pagat",))
            (pagat,) = file.announcements
            return replace(file, announcements=(replace(pagat, kontra=kontra),))
    raise AssertionError("no deal with the I in the dealer's hand")


@pytest.mark.parametrize("kontra", [True, False])
def test_a_kontra_on_a_failing_announcement_is_best(kontra: bool) -> None:
    rules = Rules(kontra=True)
    result = reviewed(failing_pagat(kontra), samples=2, rules=rules)
    (decision,) = by_kind(result.decisions, "kontra")
    assert (decision.seat, decision.about, decision.round) == (1 - FOREHAND, "pagat", "before")
    assert decision.choice == (KONTRA if kontra else NO_KONTRA)
    values = {o.option: o for o in decision.options}
    # A Pagat announced before in a Dreiblatt is worth 12, 24 with Kontra.
    assert values[KONTRA].mean_points - values[NO_KONTRA].mean_points == 12
    assert values[KONTRA].dd_points - values[NO_KONTRA].dd_points == 12
    if kontra:
        assert (decision.verdict, decision.knew_loss_points, decision.dd_loss_points) == ("best", 0, 0)
    else:
        assert (decision.verdict, decision.knew_loss_points, decision.dd_loss_points) == ("mistake", 12, 12)
    phases = {p.phase: p for p in result.player(1 - FOREHAND).phases}
    assert phases["announcements"].dd_loss == (0 if kontra else 12)


def test_a_play_file_has_no_decisions() -> None:
    file = played(3, "dreiblatt")
    result = review(file.play_deal(), samples=2, jobs=1, start=28, before_play=True)
    assert result.decisions == () and result.decision_samples is None
    assert result.to_json()["decisions"] == []
    without = review(file, samples=2, jobs=1, start=28)
    assert without.decisions == () and all(not p.phases for p in without.players)
