"""The score-optimal search against brute-force minimaxes written straight
from the rules: one settles every finished hand with
kosolve.analysis.scoring.settle, the other looks every finished hand up in
an arbitrary leaf table by the documented index.  Neither shares code with
the search (they play cards with the model's Position only), and both are
checked with the frame (the point searches that bound the net score) on and
off, on fresh, warm and tiny tables."""

from __future__ import annotations

import itertools
import os
import random
from dataclasses import replace

import pytest
from support import fast_first
from support.games import late_deal

from kosolve.analysis.netscore import _build_leaf_table, _history, _leaf_table, net_score, net_score_at_least
from kosolve.analysis.scoring import held_bonuses, settle
from kosolve.analysis.solving import solve
from kosolve.dealing import deal_game
from kosolve.engine import MIN_TABLE_MB, ScoreSolver, Solver
from kosolve.engine._testing import _py_root_key
from kosolve.model.announcements import (
    ABSOLUT_THIRDS,
    ANNOUNCEMENTS,
    BIRD_NAMES,
    DECLARER_ANNOUNCEMENTS,
    PANZER_THIRDS,
    Announcement,
    check_announcements,
)
from kosolve.model.cards import CARD_VALUES, KINGS, TRULL, parse_hand
from kosolve.model.deal import Deal
from kosolve.model.game import Position, Rules, legal_replies, reply_wins, trick_thirds

RULE_SETS = [Rules(), Rules(silent_bird_penalty=True)]
ALL_RULES = [
    Rules(),
    Rules(silent_bird_penalty=True),
    Rules(win_thirds=106),
    Rules(defender_announcements=True, kontra=True),
    Rules(silent_bird_penalty=True, defender_announcements=True, win_thirds=106),
]
MANY = int(os.environ.get("KOSOLVE_SCORE_ENDINGS", "400"))
"""Random endings in each of the long agreement tests (more with the
variable set; the docs/benchmarks-history.md figures name the runs made)."""
LEAVES = 4 * 256 * 4
BIRD_CARD = 32
"""The card I; II, III and IV follow it."""


def brute_force(deal: Deal, position: Position, rules: Rules) -> int:
    """The declarer's net score with best play, every finished hand settled."""
    if position.is_over():
        return settle(replace(deal, play=tuple(position.move_stack)), rules).totals[deal.declarer]
    values = []
    for card in list(position.legal_moves):
        position.push(card)
        values.append(brute_force(deal, position, rules))
        position.pop()
    return max(values) if position.turn == deal.declarer else min(values)


def random_announcements(rng: random.Random, deal: Deal, rules: Rules) -> tuple[Announcement, ...]:
    """Up to three announcements the rules allow, the defender's too when
    they allow it, with a Kontra now and then."""
    what = rng.sample(ANNOUNCEMENTS, rng.randint(0, 3))
    announced = []
    for name in what:
        by = deal.declarer
        if rules.defender_announcements and name not in DECLARER_ANNOUNCEMENTS and rng.random() < 0.4:
            by = 1 - deal.declarer
        when = None if deal.contract == "solo" else rng.choice(["before", "after"])
        announced.append(Announcement(by, name, when, kontra=rules.kontra and rng.random() < 0.3))
    check_announcements(announced, deal.contract, deal.declarer, rules)
    return tuple(announced)


def replies(hand: int, led: int) -> list[int]:
    legal = legal_replies(hand, led)
    return [card for card in range(54) if legal >> card & 1]


def random_ending(rng: random.Random, rules: Rules) -> Deal:
    """A whole deal with random announcements played down to an ending of
    one to four tricks, now and then in mid-trick, and often with one side
    having won every trick so far (the Valat still open)."""
    sweeping = rng.choice([None, "declarer", "defender"])
    for _ in range(200):
        deal = deal_game(rng)
        deal = replace(deal, announcements=random_announcements(rng, deal, rules))
        tricks_left = rng.randint(1, 4)
        sweeper = None if sweeping is None else deal.declarer if sweeping == "declarer" else 1 - deal.declarer
        position = deal.position()
        while position.hands[0].bit_count() > tricks_left or position.trick:
            moves = list(position.legal_moves)
            if sweeper is not None and position.trick:
                # The sweeper wins the trick if it can, the other lets it.
                kept = [c for c in moves if (position.turn == sweeper) == reply_wins(position.led, c)]
                position.push(rng.choice(kept or moves))
            elif sweeper is not None and position.turn == sweeper:
                # The sweeper leads a card that no reply beats, if it has one.
                other = position.hands[1 - sweeper]
                sure = [c for c in moves if not any(reply_wins(c, r) for r in replies(other, c))]
                position.push(rng.choice(sure) if sure else max(moves))
            elif sweeper is not None:
                position.push(min(moves))
            else:
                position.push(rng.choice(moves))
        if sweeper is None or not position.tricks_won[1 - sweeper]:
            break
    if rng.random() < 0.3:
        position.push(rng.choice(list(position.legal_moves)))
    return replace(deal, play=tuple(position.move_stack))


@pytest.mark.parametrize("seed", fast_first(range(24), keep=8))
def test_net_score_agrees_with_settling_every_ending(seed: int) -> None:
    rng = random.Random(seed)
    deal = late_deal(rng, rng.randint(1, 4))
    rules = RULE_SETS[seed % 2]
    result = net_score(deal, rules=rules)
    assert result.score == brute_force(deal, deal.position(), rules)
    finished = replace(deal, play=deal.play + result.line)
    assert settle(finished, rules).totals[deal.declarer] == result.score


def bird_beside_a_neighbour(deal: Deal) -> bool:
    """Whether a hand holds a bird (I to IV) and the next tarock in play
    above or below it: the pair that the score search's dominated cards
    would join if the birds did not stay alone."""
    hands = deal.position().hands
    in_play = [card for card in range(32, 54) if (hands[0] | hands[1]) >> card & 1]
    return any(
        low < BIRD_CARD + 4 and any(hand >> low & 1 and hand >> high & 1 for hand in hands)
        for low, high in itertools.pairwise(in_play)
    )


@pytest.mark.parametrize("count", [12, pytest.param(40, marks=pytest.mark.slow)])
def test_birds_beside_their_neighbours_keep_the_score(count: int) -> None:
    """Endings with a bird announced and a bird touching another tarock of
    the same hand: the score search, which drops dominated cards where the
    scores never fall as the thirds grow, agrees with settling every
    ending."""
    rng = random.Random(77 + count)
    checked = 0
    while checked < count:
        rules = RULE_SETS[checked % 2]
        deal = random_ending(rng, rules)
        if not any(a.what in BIRD_NAMES for a in deal.announcements) or not bird_beside_a_neighbour(deal):
            continue
        assert net_score(deal, rules=rules).score == brute_force(deal, deal.position(), rules), deal
        checked += 1


@pytest.mark.parametrize(
    ("block", "endings"), fast_first([(0, MANY // 10), *((block, MANY // 4) for block in range(4))])
)
def test_thousands_of_endings_agree_with_settling_cold_and_warm(block: int, endings: int) -> None:
    """Random endings, random announcements of every kind, every rule
    option: on one solver kept warm across them (its point table's entries
    count across queries), on a fresh one, and on the smallest tables."""
    rng = random.Random(7000 + block)
    warm = ScoreSolver(tt_mb=1)
    sweeps = 0
    for index in range(endings):
        rules = ALL_RULES[index % len(ALL_RULES)]
        deal = random_ending(rng, rules)
        expected = brute_force(deal, deal.position(), rules)
        solver = warm if index % 3 else ScoreSolver(tt_mb=16 * MIN_TABLE_MB if index % 2 else 1)
        result = net_score(deal, rules=rules, solver=solver, with_points_line=False)
        assert result.score == expected, (block, index)
        finished = replace(deal, play=deal.play + result.line)
        assert settle(finished, rules).totals[deal.declarer] == expected, (block, index)
        played = deal.position()
        sweeps += not (played.tricks_won[0] and played.tricks_won[1])
    assert sweeps >= endings // 13  # the Valat is open in some of them


@pytest.mark.parametrize("block", fast_first(range(4), keep=1))
def test_one_solver_across_a_hands_positions_agrees_with_settling(block: int) -> None:
    """Every position of random endings and every card from it, asked in
    play order of one warm solver, as a bot asks: the queries score the
    finished hands alike (until a bird's trick is played) and their
    thresholds move by the thirds of each trick, so the solver keeps its
    entries from query to query; each answer is the brute force's."""
    rng = random.Random(9100 + block)
    warm = ScoreSolver(tt_mb=1)
    checked = 0
    index = 0
    while checked < MANY // 2:
        index += 1
        rules = ALL_RULES[index % len(ALL_RULES)]
        deal = random_ending(rng, rules)
        position = deal.position()
        # Where the win is still open the thresholds move with every trick.
        if position.hands[0].bit_count() < 3 or position.declarer_thirds() >= rules.win_thirds:
            continue
        while not position.is_over():
            for card in list(position.legal_moves):
                after = position.copy()
                after.push(card)
                score = net_score(deal, after, rules=rules, solver=warm, with_points_line=False, with_line=False)
                assert score.score == brute_force(deal, after, rules), (block, index, after.move_stack)
                checked += 1
            position.push(rng.choice(list(position.legal_moves)))


def test_a_kept_leaf_table_is_the_one_built_for_the_deal() -> None:
    """Deals that share contract and announcements but not their cards,
    so that the kept tables are asked again and again: each is the table
    built for the deal asking (it would not be if the key missed what the
    settlement reads, the trull and kings held, say)."""
    rng = random.Random(9400)
    checked = 0
    for index in range(300):
        deal = deal_game(rng)
        if deal.contract == "solo":
            continue
        rules = ALL_RULES[index % 2]
        names = ("without_trull", "without_kings", "pagat") if index % 3 else ("uhu", "absolut")
        deal = replace(deal, announcements=tuple(Announcement(deal.declarer, name, "after") for name in names))
        position = deal.position()
        for _ in range(rng.randint(0, 31)):
            position.push(rng.choice(list(position.legal_moves)))
        history = _history(deal, position)
        assert _leaf_table(deal, history, rules) == _build_leaf_table(deal, history, rules), index
        checked += 1
    assert checked > 200


@pytest.mark.parametrize(
    ("name", "cards", "held"), [("without_trull", (52, 53), TRULL), ("without_kings", (7, 15, 23, 31), KINGS)]
)
def test_a_leaf_table_is_not_kept_for_another_holding(name: str, cards: tuple[int, ...], held: int) -> None:
    """Two deals alike but for one card the declarer, who holds none of
    ``held``, swaps for one of the ``cards`` (the Mond and the Skus; the
    kings): his announcement of ``name`` can be made in one and not in the
    other, and each is scored by its own table."""
    rng = random.Random(9500)
    while True:
        deal = deal_game(rng, contract="dreiblatt")
        deal = replace(deal, announcements=(Announcement(deal.declarer, name, "after"),))
        own, other = deal.hands[deal.declarer], deal.hands[1 - deal.declarer]
        given = next((c for c in cards if other >> c & 1), None)
        if own & held or given is None:
            continue
        taken = min(c for c in range(32) if own >> c & 1 and not KINGS >> c & 1)
        hands = [0, 0]
        hands[deal.declarer] = own ^ (1 << taken) ^ (1 << given)
        hands[1 - deal.declarer] = other ^ (1 << taken) ^ (1 << given)
        holding = replace(deal, hands=(hands[0], hands[1]))
        # Nothing else the settlement reads may differ: the bonuses held.
        assert deal.piles is not None and holding.piles is not None
        if held_bonuses(deal.hands, deal.piles, deal.laid) == held_bonuses(holding.hands, holding.piles, holding.laid):
            break
    for one in (deal, holding):
        history = _history(one, one.position())
        assert _leaf_table(one, history, Rules()) == _build_leaf_table(one, history, Rules())
    assert _leaf_table(deal, _history(deal, deal.position()), Rules()) != _leaf_table(
        holding, _history(holding, holding.position()), Rules()
    )


@pytest.mark.parametrize("tiny", fast_first([False, True]))
def test_a_frame_on_the_points_solvers_table_agrees_with_settling(tiny: bool) -> None:
    """The score search's frame searching on a points solver's table, as an
    analyser makes it, with that solver's points solves of the same endings
    between the scores (and its table tiny, so that entries are replaced):
    each score is the brute force's."""
    rng = random.Random(9700 + tiny)
    points = Solver(tt_mb=MIN_TABLE_MB if tiny else 1)
    shared = ScoreSolver(tt_mb=1, points=points)
    assert shared.points is points
    for index in range(MANY // 4):
        rules = ALL_RULES[index % len(ALL_RULES)]
        deal = random_ending(rng, rules)
        expected = brute_force(deal, deal.position(), rules)
        if index % 2:
            solve(deal.position(), solver=points, with_line=False)
        assert net_score(deal, rules=rules, solver=shared, with_points_line=False).score == expected, index


def test_a_frame_table_from_anything_but_a_solver_is_refused() -> None:
    with pytest.raises(TypeError, match="points must be a Solver"):
        ScoreSolver(tt_mb=1, points=object())  # type: ignore[arg-type]


@pytest.mark.parametrize("block", fast_first(range(3), keep=1))
def test_a_score_test_agrees_with_settling(block: int) -> None:
    """``net_score_at_least`` at, above and around the brute force's score,
    on one warm solver and on fresh ones."""
    rng = random.Random(9300 + block)
    warm = ScoreSolver(tt_mb=1)
    for index in range(MANY // 8):
        rules = ALL_RULES[index % len(ALL_RULES)]
        deal = random_ending(rng, rules)
        expected = brute_force(deal, deal.position(), rules)
        solver = warm if index % 2 else None
        for score in (expected, expected + 1, expected + rng.randint(-30, 30)):
            assert net_score_at_least(deal, score, rules=rules, solver=solver) == (expected >= score), (block, index)


@pytest.mark.parametrize("seed", fast_first(range(6), keep=2))
def test_one_solver_across_a_longer_hand_agrees_with_fresh_solvers(seed: int) -> None:
    """The same walk from eight tricks before the end, too long for the
    brute force: each answer of the warm solver is a fresh solver's."""
    rng = random.Random(9200 + seed)
    warm = ScoreSolver(tt_mb=1)
    for _ in range(3):
        deal = late_deal(rng, 8)
        rules = ALL_RULES[seed % len(ALL_RULES)]
        position = deal.position()
        while not position.is_over():
            for card in list(position.legal_moves):
                after = position.copy()
                after.push(card)
                kept = net_score(deal, after, rules=rules, solver=warm, with_points_line=False, with_line=False)
                fresh = net_score(deal, after, rules=rules, with_points_line=False, with_line=False)
                assert kept.score == fresh.score, (seed, after.move_stack)
            position.push(rng.choice(list(position.legal_moves)))


def test_a_warm_solver_keeps_its_entries_only_for_the_same_scoring() -> None:
    """Two queries of one position: the second answers from the first's
    entries when the leaf table is the same and the thresholds have moved
    together by the thirds between the two roots, and searches afresh when
    the leaf table differs."""
    deal = late_deal(random.Random(5), 5)
    position = deal.position()
    hands = (position.hands[0], position.hands[1], position.leader, deal.declarer, position.led)
    leaf = _leaf_table(deal, _history(deal, position), Rules())
    steps = [30, 40, 60]
    solver = ScoreSolver(tt_mb=1)
    solver.solve(*hands, steps, 0, 3, leaf, with_line=False)
    nodes = solver.nodes
    # The same position, its thresholds all 7 thirds nearer: what the
    # first query proved at 7 more thirds so far.
    again, _ = ScoreSolver(tt_mb=1).solve(*hands, [s - 7 for s in steps], 0, 3, leaf, with_line=False)
    assert solver.solve(*hands, [s - 7 for s in steps], 0, 3, leaf, with_line=False)[0] == again
    shifted_nodes = solver.nodes - nodes
    fresh = ScoreSolver(tt_mb=1)
    fresh.solve(*hands, [s - 7 for s in steps], 0, 3, leaf, with_line=False)
    assert shifted_nodes < fresh.nodes
    other_leaf = [score + 1 if score > 0 else score for score in leaf]
    expected, _ = ScoreSolver(tt_mb=1).solve(*hands, steps, 0, 3, other_leaf, with_line=False)
    assert solver.solve(*hands, steps, 0, 3, other_leaf, with_line=False)[0] == expected


def leaf_minimax(
    position: Position,
    thirds: int,
    birds: int,
    valat: int,
    steps: list[int],
    leaf: list[int],
    memo: dict[tuple[object, ...], int] | None = None,
) -> int:
    """The net score by the leaf table: each finished hand's index is
    (thresholds its thirds reach * 256 + the birds' states) * 4 + the
    Valat bits; a bird (I to IV) played in its trick (16 down to 13) is won
    there (1) or beaten (2); Valat bit 0 stays while the declarer wins every
    trick, bit 1 while the defender does.  ``memo`` remembers each position
    by its exact cards and states, for longer endings."""
    if position.is_over():
        return leaf[(sum(thirds >= step for step in steps) * 256 + birds) * 4 + valat]
    state = (*position.hands, position.leader, position.led if position.trick else None, thirds, birds, valat)
    if memo is not None and state in memo:
        return memo[state]
    values = []
    for card in list(position.legal_moves):
        now_thirds, now_birds, now_valat = thirds, birds, valat
        if position.trick:
            led, leader = position.led, position.leader
            follower = 1 - leader
            trick = 17 - position.hands[follower].bit_count()
            winner = follower if reply_wins(led, card) else leader
            if winner == position.declarer:
                now_thirds += trick_thirds(led, card)
                now_valat &= 1
            else:
                now_valat &= 2
            for played, seat in ((led, leader), (card, follower)):
                index = played - BIRD_CARD
                if 0 <= index < 4 and trick == 16 - index:
                    now_birds |= (1 if seat == winner else 2) << (2 * index)
        position.push(card)
        values.append(leaf_minimax(position, now_thirds, now_birds, now_valat, steps, leaf, memo))
        position.pop()
    value = max(values) if position.turn == position.declarer else min(values)
    if memo is not None:
        memo[state] = value
    return value


def random_leaf_problem(rng: random.Random, most_tricks: int = 4) -> tuple[Position, list[int], int, int, list[int]]:
    """A small position, ascending thresholds near the thirds in play, a
    consistent start state (birds out of play in any state, the Valat in
    any) and a leaf table of random small scores, often not monotone in the
    thresholds reached: the search may not assume any shape of the score."""
    deal = deal_game(rng)
    position = deal.position()
    tricks_left = rng.randint(1, most_tricks)
    while position.hands[0].bit_count() > tricks_left or position.trick:
        position.push(rng.choice(list(position.legal_moves)))
    if rng.random() < 0.3:
        position.push(rng.choice(list(position.legal_moves)))
    fresh = Position((position.hands[0], position.hands[1]), declarer=position.declarer, leader=position.leader)
    if position.trick:
        # The same trick begun: the leader's card goes back and is led again.
        led = position.led
        hands = list(fresh.hands)
        hands[position.leader] |= 1 << led
        fresh = Position((hands[0], hands[1]), declarer=position.declarer, leader=position.leader)
        fresh.push(led)
    in_hands = fresh.hands[0] | fresh.hands[1] | (1 << fresh.led if fresh.trick else 0)
    in_play = sum(3 * CARD_VALUES[card] - 2 for card in range(54) if in_hands >> card & 1)
    steps = sorted(rng.randint(-5, in_play + 5) for _ in range(3))
    birds = 0
    for index in range(4):
        if not in_hands >> (BIRD_CARD + index) & 1:
            birds |= rng.choice([0, 0, 1, 2]) << (2 * index)
    valat = rng.randrange(4)
    spread = rng.choice([2, 5, 30])
    leaf = [rng.randint(-spread, spread) for _ in range(LEAVES)]
    if rng.random() < 0.5:
        make_monotone(leaf)
    return fresh, steps, birds, valat, leaf


def make_monotone(leaf: list[int]) -> None:
    """Sort each state's scores by the thresholds reached, so that none
    falls as more are reached, as the scoring makes it."""
    for rest in range(LEAVES // 4):
        column = sorted(leaf[step * 1024 + rest] for step in range(4))
        for step in range(4):
            leaf[step * 1024 + rest] = column[step]


@pytest.mark.parametrize("block", fast_first(range(4), keep=2))
def test_any_leaf_table_agrees_with_the_leaf_minimax(block: int) -> None:
    """The engine alone, on arbitrary leaf tables: framed and unframed, warm
    and cold, the value and a line that keeps it."""
    rng = random.Random(9000 + block)
    warm = ScoreSolver(tt_mb=1)
    for index in range(MANY // 4):
        position, steps, birds, valat, leaf = random_leaf_problem(rng)
        expected = leaf_minimax(position.copy(), 0, birds, valat, steps, leaf)
        args = (position.hands[0], position.hands[1], position.leader, position.declarer, position.led)
        solver = warm if index % 2 else ScoreSolver(tt_mb=16 * MIN_TABLE_MB)
        framed, line = solver.solve(*args, steps, birds, valat, leaf)
        assert framed == expected, (block, index)
        unframed, _ = ScoreSolver(tt_mb=1).solve(*args, steps, birds, valat, leaf, framed=False)
        assert unframed == expected, (block, index)
        played = position.copy()
        for card in line:
            played.push(card)
        assert played.is_over()


def ignoring_thresholds(leaf: list[int], valats: list[int], rng: random.Random) -> list[int]:
    """The leaf table with the thresholds reached made not to matter in the
    Valat states ``valats`` (as once an announced Valat has failed), and
    with the chance that only the win still matters there."""
    leaf = list(leaf)
    keep_win = rng.random() < 0.3
    for rest in range(256):
        for valat in valats:
            for step in range(1, 4):
                source = 1 if keep_win and step > 1 else 0
                leaf[(step * 256 + rest) * 4 + valat] = leaf[(source * 256 + rest) * 4 + valat]
    return leaf


@pytest.mark.parametrize("block", fast_first(range(4), keep=2))
def test_scores_that_ignore_the_thresholds_agree_with_the_leaf_minimax(block: int) -> None:
    """Where no threshold can change the score the search keys positions by
    the cards' ranks alone, and a threshold that cannot matter is left out
    of the key: endings of up to five tricks whose scores ignore the
    thresholds in some or all of the Valat states, so that one search
    switches between the kinds of key."""
    rng = random.Random(9500 + block)
    warm = ScoreSolver(tt_mb=1)
    for index in range(MANY // 8):
        position, steps, birds, valat, leaf = random_leaf_problem(rng, most_tricks=7)
        leaf = ignoring_thresholds(leaf, rng.choice([[0, 1, 2, 3], [0], [0, 2], [1, 3], [2]]), rng)
        expected = leaf_minimax(position.copy(), 0, birds, valat, steps, leaf, {})
        args = (position.hands[0], position.hands[1], position.leader, position.declarer, position.led)
        solver = warm if index % 2 else ScoreSolver(tt_mb=16 * MIN_TABLE_MB)
        assert solver.solve(*args, steps, birds, valat, leaf)[0] == expected, (block, index)


def relabelled(hands: tuple[int, int], rng: random.Random) -> tuple[int, int]:
    """The hands after the cards in play of each suit, and the tarocks above
    the birds, are moved onto another set of cards of that group, each card
    keeping its rank among them: the same game of tricks, other points."""
    in_play = hands[0] | hands[1]
    groups = [range(8 * suit, 8 * suit + 8) for suit in range(4)] + [range(BIRD_CARD + 4, 54)]
    target = {card: card for card in range(BIRD_CARD, BIRD_CARD + 4)}
    for group in groups:
        cards = [card for card in group if in_play >> card & 1]
        target.update(zip(cards, sorted(rng.sample(list(group), len(cards))), strict=True))
    moved = [sum(1 << target[card] for card in range(54) if hand >> card & 1) for hand in hands]
    return moved[0], moved[1]


def regrouped_suits(hands: tuple[int, int], rng: random.Random) -> tuple[int, int] | None:
    """Hands whose cards in play, in card order, have the same holders, but
    with other numbers of them in the four suits (the tarocks unchanged);
    None if the suits' cards cannot be split otherwise."""
    in_play = hands[0] | hands[1]
    suit_cards = [card for card in range(32) if in_play >> card & 1]
    counts = [(in_play >> 8 * suit & 0xFF).bit_count() for suit in range(4)]
    splits = [
        split
        for split in itertools.product(range(9), repeat=3)
        if 0 <= len(suit_cards) - sum(split) <= 8 and [*split, len(suit_cards) - sum(split)] != counts
    ]
    if not splits:
        return None
    split = rng.choice(splits)
    sizes = [*split, len(suit_cards) - sum(split)]
    targets = [8 * suit + rank for suit in range(4) for rank in range(sizes[suit])]
    moved = [hand & ~0xFFFFFFFF for hand in hands]
    for card, target in zip(suit_cards, targets, strict=True):
        seat = 0 if hands[0] >> card & 1 else 1
        moved[seat] |= 1 << target
    return moved[0], moved[1]


def thirds_of_random_play(position: Position, rng: random.Random) -> int:
    """The declarer's thirds from ``position`` to the end of one random play."""
    played = position.copy()
    thirds = 0
    while not played.is_over():
        if played.trick:
            led, leader = played.led, played.leader
            card = rng.choice(list(played.legal_moves))
            winner = 1 - leader if reply_wins(led, card) else leader
            thirds += trick_thirds(led, card) if winner == played.declarer else 0
            played.push(card)
        else:
            played.push(rng.choice(list(played.legal_moves)))
    return thirds


@pytest.mark.parametrize("block", fast_first(range(4), keep=2))
def test_thresholds_at_the_thirds_played_agree_with_the_leaf_minimax(block: int) -> None:
    """Where the score never falls as thresholds are reached, an entry holds
    the thirds so far that pass a test or fail it, for every way of
    reaching the position: endings of up to seven tricks whose thresholds lie
    at, or one off, the thirds of random plays, so that positions reached
    with thirds a third apart fall on either side of them."""
    rng = random.Random(9700 + block)
    warm = ScoreSolver(tt_mb=1)
    for index in range(MANY // 8):
        position, _, birds, valat, leaf = random_leaf_problem(rng, most_tricks=7)
        make_monotone(leaf)
        steps = sorted(thirds_of_random_play(position, rng) + rng.choice([-1, 0, 1]) for _ in range(3))
        expected = leaf_minimax(position.copy(), 0, birds, valat, steps, leaf, {})
        args = (position.hands[0], position.hands[1], position.leader, position.declarer, position.led)
        solver = warm if index % 2 else ScoreSolver(tt_mb=16 * MIN_TABLE_MB)
        assert solver.solve(*args, steps, birds, valat, leaf)[0] == expected, (block, index)


def test_a_key_by_ranks_only_where_no_threshold_matters() -> None:
    """Positions that differ only in which cards of each suit are in play,
    each keeping its rank, get one key and have one score where the
    thresholds cannot change the score, and keys of their own where they
    can and the points in play differ."""
    rng = random.Random(77)
    shared = differing = regroupings = 0
    for _ in range(300):
        position, steps, birds, valat, leaf = random_leaf_problem(rng, most_tricks=5)
        if position.trick:
            continue
        ignoring = rng.random() < 0.5
        if ignoring:
            leaf = ignoring_thresholds(leaf, [0, 1, 2, 3], random.Random(0))
        other = Position(
            relabelled((position.hands[0], position.hands[1]), rng), declarer=position.declarer, leader=position.leader
        )
        keys = [
            _py_root_key(ScoreSolver(tt_mb=1), p.hands[0], p.hands[1], p.leader, p.declarer, steps, birds, valat, leaf)
            for p in (position, other)
        ]
        points = [
            sum(CARD_VALUES[c] for c in range(54) if (p.hands[0] | p.hands[1]) >> c & 1) for p in (position, other)
        ]
        if ignoring:
            # The same holders in card order, other numbers of cards by suit: another key.
            regrouped = regrouped_suits((position.hands[0], position.hands[1]), rng)
            if regrouped is not None:
                assert keys[0] != _py_root_key(
                    ScoreSolver(tt_mb=1), *regrouped, position.leader, position.declarer, steps, birds, valat, leaf
                )
                regroupings += 1
            assert keys[0] == keys[1]
            values = [leaf_minimax(p.copy(), 0, birds, valat, steps, leaf, {}) for p in (position, other)]
            assert values[0] == values[1]
            shared += 1
        elif points[0] != points[1]:
            assert keys[0] != keys[1]
            differing += 1
    assert shared > 50 and differing > 50 and regroupings > 20


@pytest.mark.parametrize("seed", range(3))
def test_the_frame_leaves_the_score_search_few_nodes(seed: int) -> None:
    """On an ending of eight tricks the score search searches on only where a
    bird or the Valat can still tip a test: the same score with far fewer
    score nodes than without the frame."""
    deal = late_deal(random.Random(40 + seed), 8)
    position = deal.position()
    history = _history(deal, position)
    base = position.declarer_thirds()
    steps = [Rules().win_thirds - base, ABSOLUT_THIRDS - base, PANZER_THIRDS - base]
    args = (position.hands[0], position.hands[1], position.leader, deal.declarer, position.led)
    state = (steps, history.birds, history.valat, _leaf_table(deal, history, Rules()))
    framed, unframed = ScoreSolver(tt_mb=4), ScoreSolver(tt_mb=4)
    assert framed.solve(*args, *state)[0] == unframed.solve(*args, *state, framed=False)[0]
    stats = framed.stats
    assert stats["nodes"] == stats["score_nodes"] + stats["point_nodes"]
    assert stats["score_nodes"] * 4 < unframed.stats["score_nodes"]


def test_the_score_optimal_line_can_differ_from_the_point_optimal_one() -> None:
    differing = 0
    for seed in range(60):
        deal = late_deal(random.Random(1000 + seed), 4)
        result = net_score(deal)
        differing += result.score != result.points_line_score
    assert differing > 0


def test_a_bird_state_in_the_high_bit_keeps_the_valat_in_the_key() -> None:
    """The birds' states fill bits 24-31 of the entry's context and the
    Valat bits 32-33: a beaten Quapil (state 2, the top bit) once spilled
    into the Valat bits, so positions with other Valat states shared an
    entry."""
    forehand, dealer = parse_hand(["HK", "CC", "C9"]), parse_hand(["SQ", "CK", "CJ"])
    rng = random.Random(5)
    for _ in range(200):  # the old key gave 4 of these a wrong value
        position = Position((forehand, dealer), declarer=1, leader=0)
        leaf = [rng.randint(-5, 5) for _ in range(LEAVES)]
        birds, valat, steps = 0b10_00_00_10, rng.choice([1, 2, 3]), sorted(rng.randint(-1, 50) for _ in range(3))
        expected = leaf_minimax(position.copy(), 0, birds, valat, steps, leaf)
        args = (forehand, dealer, 0, 1, -1, steps, birds, valat, leaf)
        assert ScoreSolver(tt_mb=1).solve(*args, framed=False)[0] == expected
        assert ScoreSolver(tt_mb=1).solve(*args)[0] == expected
