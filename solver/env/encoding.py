"""What the two environments share, without PettingZoo, Gymnasium or
OpenSpiel (docs/env.md): the actions, the observation built from named
pieces, the rewards and the ``play`` phases' bid and exchange.

An action is the index of an option in the decision's canonical order
(docs/protocol.md), below :data:`MAX_ACTIONS`.  The observation is what a
seat knows as zeros and ones (:func:`encode`): the pieces of
:data:`PIECES` one after the other, each written by its own function, so
that its length and its layout are one table.

>>> OBSERVATION_SIZE == sum(size for _, size in PIECES)
True
>>> [name for name, _ in PIECES][:3]
['hand', 'pile', 'other_pile']

The rule switches that add decisions (``Rules.defender_announcements``,
``Rules.kontra``) add no action ids: a ``kontra`` decision's actions are
the indices of its options too (0 ``done``, then the announcements it may
double); :data:`BONUS_OPTIONS` says which bonus each action of an
``announce`` or ``kontra`` decision names.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from dataclasses import replace
from typing import Final

import numpy as np

from kosolve.analysis.netscore import net_score
from kosolve.dealing import choose_contract, choose_exchange
from kosolve.model.announcements import ANNOUNCEMENTS
from kosolve.model.auction import PASS
from kosolve.model.cards import N_CARDS, Hand, mask_of
from kosolve.model.game import CONTRACTS
from kosolve.play.game import DONE, KINDS, Decision, Game, Knowledge

ENCODING_VERSION: Final = 2
"""The version of the observation's layout (:data:`PIECES`) and of the
actions' meaning: 2 since the decisions of ``Rules.defender_announcements``
and ``Rules.kontra`` (the ``kind`` piece's ``kontra`` place, the pieces
from ``announced_mine`` on); 1 before (docs/env.md)."""
MAX_ACTIONS: Final = 969
"""The most options a decision has: the lay-aways of three cards from 19
(C(19, 3)); the calls, announcements, Kontras, talon choices and cards
are fewer."""
BONUS_ACTIONS: Final = len(ANNOUNCEMENTS)
"""The actions after ``done`` (action 0) of an ``announce`` or ``kontra``
decision: one a bonus at most."""
REWARDS: Final = ("points", "win", "regret")
PHASES: Final = ("game", "play")

Bits = np.ndarray
"""A piece of the observation: zeros and ones, int8."""


def _bits(hand: Hand) -> Bits:
    return np.array([(hand >> card) & 1 for card in range(N_CARDS)], dtype=np.int8)


def _one_hot(index: int | None, size: int) -> Bits:
    """``size`` + 1 places: the last says "none"."""
    vector = np.zeros(size + 1, dtype=np.int8)
    vector[size if index is None else index] = 1
    return vector


def _flags(*flags: bool) -> Bits:
    return np.array(flags, dtype=np.int8)


def _played(knows: Knowledge, seat: int) -> Hand:
    return 0 if knows.seat_view is None else knows.seat_view.played_by(seat)


def _hand(knows: Knowledge, kind: str, decision: Decision | None) -> Bits:
    """The seat's cards still held."""
    view = knows.seat_view
    hand = knows.auction.hand if view is None else view.hand
    return _bits(hand & ~_played(knows, knows.seat))


def _pile(knows: Knowledge, kind: str, decision: Decision | None) -> Bits:
    """The seat's pile at trick 1: its discards and its lay-away, or as
    defender the talon cards left to it."""
    view = knows.seat_view
    return _bits(knows.auction.pile | (knows.lay_away or 0) if view is None else view.pile)


def _other_pile(knows: Knowledge, kind: str, decision: Decision | None) -> Bits:
    """The other's cards the seat has seen: his tarocks laid away face up,
    and the talon cards left to him or taken by him."""
    view = knows.seat_view
    return _bits(knows.auction.other_pile if view is None else view.other_pile | view.other_holds)


def _talon(knows: Knowledge, kind: str, decision: Decision | None) -> Bits:
    """The talon, once exposed."""
    return _bits(mask_of(knows.talon) if knows.talon else 0)


def _mine(knows: Knowledge, kind: str, decision: Decision | None) -> Bits:
    """The cards the seat has played."""
    return _bits(_played(knows, knows.seat))


def _theirs(knows: Knowledge, kind: str, decision: Decision | None) -> Bits:
    """The cards the other has played."""
    return _bits(_played(knows, 1 - knows.seat))


def _led(knows: Knowledge, kind: str, decision: Decision | None) -> Bits:
    """The card on the table, in a trick not yet won."""
    view = knows.seat_view
    tricks = () if view is None else view.tricks
    return _bits(mask_of(tricks[-1].cards) if tricks and tricks[-1].winner is None else 0)


def _kind(knows: Knowledge, kind: str, decision: Decision | None) -> Bits:
    """The decision's kind, one of :data:`~kosolve.play.game.KINDS`."""
    return _flags(*(kind == k for k in KINDS))


def _contract(knows: Knowledge, kind: str, decision: Decision | None) -> Bits:
    """The contract, or none yet."""
    return _one_hot(None if knows.contract is None else CONTRACTS.index(knows.contract), len(CONTRACTS))


def _declarer(knows: Knowledge, kind: str, decision: Decision | None) -> Bits:
    """Who declares: this seat, the other, or nobody yet."""
    return _one_hot(None if knows.declarer is None else int(knows.declarer != knows.seat), 2)


def _seat(knows: Knowledge, kind: str, decision: Decision | None) -> Bits:
    """The seat: forehand or dealer."""
    return _flags(knows.seat == 0, knows.seat == 1)


def _standing(knows: Knowledge, kind: str, decision: Decision | None) -> Bits:
    """The contract standing in the auction (the last one called), or none."""
    called = [CONTRACTS.index(call) for call in knows.calls if call in CONTRACTS]
    return _one_hot(called[-1] if called else None, len(CONTRACTS))


def _announced(knows: Knowledge, kind: str, decision: Decision | None) -> Bits:
    """The bonuses announced, by either seat, one place for each of
    :data:`~kosolve.model.announcements.ANNOUNCEMENTS`."""
    announced = {a.what for a in knows.announcements}
    return _flags(*(what in announced for what in ANNOUNCEMENTS))


def _announced_mine(knows: Knowledge, kind: str, decision: Decision | None) -> Bits:
    """The bonuses this seat announced (the rest of ``announced`` the other did)."""
    mine = {a.what for a in knows.announcements if a.by == knows.seat}
    return _flags(*(what in mine for what in ANNOUNCEMENTS))


def _announced_before(knows: Knowledge, kind: str, decision: Decision | None) -> Bits:
    """The bonuses announced before the talon (worth double, docs/rules.md
    §6); one announced after, or in a Solo, has a 0 here."""
    before = {a.what for a in knows.announcements if a.when == "before"}
    return _flags(*(what in before for what in ANNOUNCEMENTS))


def _kontra(knows: Knowledge, kind: str, decision: Decision | None) -> Bits:
    """The announcements doubled by a Kontra (``Rules.kontra``)."""
    doubled = {a.what for a in knows.announcements if a.kontra}
    return _flags(*(what in doubled for what in ANNOUNCEMENTS))


def _bonus_options(knows: Knowledge, kind: str, decision: Decision | None) -> Bits:
    """For the seat's own ``announce`` or ``kontra`` decision, the bonus
    each of its actions 1 to :data:`BONUS_ACTIONS` names: a one-hot group
    of :data:`~kosolve.model.announcements.ANNOUNCEMENTS` places an
    action, zeros for an action that is no option (and for every other
    decision, and the other seat's).  A Kontra's options come in the order
    the announcements were made, not in a fixed one: this piece says which
    is which."""
    vector = np.zeros((BONUS_ACTIONS, len(ANNOUNCEMENTS)), dtype=np.int8)
    if decision is not None and decision.seat == knows.seat and decision.kind in ("announce", "kontra"):
        assert decision.options[0] == DONE
        for action, option in enumerate(decision.options[1:]):
            assert isinstance(option, str)
            vector[action, ANNOUNCEMENTS.index(option)] = 1
    return vector.reshape(-1)


Piece = tuple[str, int, Callable[[Knowledge, str, Decision | None], Bits]]
_PIECES: Final[tuple[Piece, ...]] = (
    ("hand", N_CARDS, _hand),
    ("pile", N_CARDS, _pile),
    ("other_pile", N_CARDS, _other_pile),
    ("talon", N_CARDS, _talon),
    ("mine", N_CARDS, _mine),
    ("theirs", N_CARDS, _theirs),
    ("led", N_CARDS, _led),
    ("kind", len(KINDS), _kind),
    ("contract", len(CONTRACTS) + 1, _contract),
    ("declarer", 3, _declarer),
    ("seat", 2, _seat),
    ("standing", len(CONTRACTS) + 1, _standing),
    ("announced", len(ANNOUNCEMENTS), _announced),
    ("announced_mine", len(ANNOUNCEMENTS), _announced_mine),
    ("announced_before", len(ANNOUNCEMENTS), _announced_before),
    ("kontra", len(ANNOUNCEMENTS), _kontra),
    ("bonus_options", BONUS_ACTIONS * len(ANNOUNCEMENTS), _bonus_options),
)
PIECES: Final = tuple((name, size) for name, size, _ in _PIECES)
"""The observation's pieces, in order: each a name and its length
(docs/env.md describes them)."""
OBSERVATION_SIZE: Final = sum(size for _, size in PIECES)
"""The observation's length, the pieces' summed."""
PIECE_SLICES: Final = {
    name: slice(end - size, end)
    for (name, size), end in zip(PIECES, itertools.accumulate(size for _, size in PIECES), strict=True)
}
"""Where each piece lies in the observation."""


def encode(knows: Knowledge, kind: str, decision: Decision | None = None) -> Bits:
    """What a seat knows, ``kind`` the decision's kind (``"play"`` after
    the end), as zeros and ones: the pieces of :data:`PIECES` in order;
    ``decision``, the game's current one (None after the end), gives the
    seat's own options (``bonus_options``)."""
    parts = []
    for name, size, encode_piece in _PIECES:
        part = encode_piece(knows, kind, decision)
        # A piece longer or shorter than its table entry would shift all after it.
        assert part.shape == (size,), (name, part.shape, size)
        parts.append(part)
    return np.concatenate(parts)


def optimal_points(game: Game) -> tuple[int, int]:
    """Each seat's game points with score-optimal double-dummy play by both
    from trick 1 of the hand ``game`` played, its bid, exchange and
    announcements as they were; (0, 0) when both passed."""
    deal = game.deal
    if deal is None:
        return (0, 0)
    score = net_score(replace(deal, play=()), rules=game.rules, with_points_line=False, with_line=False).score
    return (score, -score) if deal.declarer == 0 else (-score, score)


def reward_values(game: Game, kind: str) -> tuple[int, int]:
    """Each seat's reward for a finished ``game``: with ``"points"`` its net
    game points, with ``"win"`` their sign, with ``"regret"`` the game
    points less :func:`optimal_points`."""
    totals = game.points
    if kind == "win":
        return (int(np.sign(totals[0])), int(np.sign(totals[1])))
    if kind == "regret":
        best = optimal_points(game)
        return (totals[0] - best[0], totals[1] - best[1])
    return totals


def bid_and_exchange(game: Game, rng: random.Random) -> None:
    """Play ``game``'s auction and exchange as the realistic dealer bids and
    exchanges (:mod:`kosolve.dealing`), up to the first card: the
    games of ``phases="play"``."""
    declarer, contract = choose_contract(game.dealt)
    calls = [contract, PASS] if declarer == 0 else [PASS, contract]
    for call in calls:
        game.choose(game.decision().options.index(call))
    exchange = choose_exchange(game.dealt.held(declarer), contract, game.dealt.talon, rng)
    while game.phase != "play":
        options = game.decision().options
        wanted: object = {"take": exchange.take, "lay_away": exchange.lay_away}.get(game.phase, options[0])
        game.choose(options.index(wanted))


__all__ = [
    "BONUS_ACTIONS",
    "ENCODING_VERSION",
    "MAX_ACTIONS",
    "OBSERVATION_SIZE",
    "PHASES",
    "PIECES",
    "PIECE_SLICES",
    "REWARDS",
    "bid_and_exchange",
    "encode",
    "optimal_points",
    "reward_values",
]
