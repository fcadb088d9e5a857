"""The JSON API of the web view (docs/web.md), without a web framework: each
request is a parsed JSON body, each answer a JSON object, and every answer
comes from the library's orchestration (:class:`~kosolve.analysis.report.Analyser`);
this module reads requests and lays out what the page draws, and searches
nothing itself.  A bad request raises :class:`RequestError`, one line.

>>> service = Service(tt_mb=16)
>>> deal = {"version": 1, "contract": "solo", "declarer": "forehand",
...         "hands": {"forehand": ["HK", "H4"], "dealer": ["HQ", "I"]}}
>>> answer = service.position({"deal": deal})
>>> answer["report"]["value"], [(m["card"], m["loss"]) for m in answer["view"]["moves"]]
({'thirds': 23, 'points': 8}, [('HK', 0), ('H4', 23)])
>>> service.position({"deal": deal, "play": ["HK", "I"]})
Traceback (most recent call last):
...
kosolve.web.api.RequestError: deal: play[1]: trick 15: I is illegal on HK: the dealer must follow suit
"""

from __future__ import annotations

import io
import random
import threading
from collections.abc import Callable, Mapping
from dataclasses import fields, replace
from typing import Final, TypeVar

from kosolve.analysis.report import Analyser, Options, OptionsError, Report
from kosolve.analysis.solving import DEFAULT_BUDGET_MB
from kosolve.dealing import MAX_SEED, deal_bid
from kosolve.model.cards import (
    DISPLAY_ORDER,
    SUIT_MASKS,
    SUIT_NAMES,
    card_name,
    hand_cards,
    hand_names,
    mask_of,
    thirds_of,
)
from kosolve.model.deal import Deal
from kosolve.model.dealt_file import DEALT_KEY, DealtFile, dealt_to_json, parse_dealt_file
from kosolve.model.files import parse_deal
from kosolve.model.game import DEFAULT_RULES, SEAT_NAMES, SEATS, IllegalMoveError, Rules, seat_name, trick_to_json
from kosolve.model.jsonfile import FileError, JSONObject, read_json
from kosolve.model.notation import notation_json, to_notation
from kosolve.model.quoting import describe, member
from kosolve.model.view import SeatViewError
from kosolve.review.choices import DEFAULT_DECISION_SAMPLES
from kosolve.review.judging import ReviewError, review
from kosolve.sampling.odds import DEFAULT_SAMPLES
from kosolve.web.games import DEFAULT_BOT, GameRequestError, GameTable

API_VERSION: Final = 1
"""The version of the API (docs/web.md): in every path (``/api/v1/...``)
and every answer (``"api": 1``)."""
MAX_REQUEST_BYTES: Final = 1 << 20
"""The largest request body read: a deal file is a few KB."""
QUEUE_BOUND: Final = 32
"""The most requests ``kosolve serve`` lets wait for its solver (``--queue``):
a page asks three at a time at most (a position, the review and the
exchange table), and 32 first clicks are searched in a second or two."""
TIME_LIMIT_S: Final = 30
"""The seconds within which ``kosolve serve`` answers a request for its
solver (``--time-limit``), waiting in the queue included: ten times the
slowest exchange table of the benchmark's (2.3 s; half a second in median,
docs/benchmarks.md), and a review takes less than a second."""
DEAL_SOURCE: Final = "deal"
"""How a message names the deal of a request: ``deal: play[3]: ...``."""

T = TypeVar("T")


class RequestError(ValueError):
    """A request the API cannot answer; the message is one line naming the
    field.  The web application answers it with status 400."""


def _error(field: str, message: str) -> RequestError:
    return RequestError(f"request: {field}: {message}" if field else f"request: {message}")


def read_request(body: bytes) -> Mapping[str, object]:
    """The JSON object of a request body, read as a deal file is read
    (UTF-8, the number and nesting limits, no key given twice).

    >>> read_request(b'{"deal": 1}')
    {'deal': 1}
    >>> read_request(b'[]')
    Traceback (most recent call last):
    ...
    kosolve.web.api.RequestError: request: expected a JSON object, got an array
    """
    if len(body) > MAX_REQUEST_BYTES:
        raise _error("", f"more than {MAX_REQUEST_BYTES >> 20} MB, too large")
    if not body.strip():
        return {}
    try:
        data = read_json(io.BytesIO(body), "request")
    except FileError as error:
        raise RequestError(str(error)) from None
    if not isinstance(data, Mapping):
        raise _error("", f"expected a JSON object, got {describe(data)}")
    _once(data)
    return data


def _given_twice(data: Mapping[str, object]) -> str | None:
    """The first key of ``data`` given twice: the reader remembers it, since
    a dict keeps the last value only."""
    return data.twice if isinstance(data, JSONObject) else None


def _once(data: Mapping[str, object], field: str = "") -> None:
    """Refuse an object of the request, at ``field``, with a key given
    twice, as a deal file's parser refuses one."""
    twice = _given_twice(data)
    if twice is not None:
        raise _error(member(field, twice), "key given twice")


def _keys(request: Mapping[str, object], allowed: tuple[str, ...], field: str = "") -> None:
    """Refuse a key of the object at ``field`` that is not ``allowed``; the
    message quotes it (a key may be any text, of any length)."""
    for key in request:
        if key not in allowed:
            raise _error(member(field, key), f"unknown key (expected {', '.join(allowed)})")


def _typed(request: Mapping[str, object], key: str, kind: type[T], what: str, default: T, prefix: str = "") -> T:
    value = request.get(key, default)
    # bool is an int to Python, never to a JSON reader.
    if value is None or not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise _error(prefix + key, f"expected {what}, got {describe(value)}")
    return value


def _seed(value: object, field: str) -> int | None:
    """A request's seed: None when not given, else an integer below :data:`~kosolve.dealing.MAX_SEED`."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < MAX_SEED:
        raise _error(field, f"expected an integer from 0 to 2**63 - 1, got {describe(value)}")
    return value


def _rules(request: Mapping[str, object], base: Rules, field: str = "rules") -> Rules:
    """The rule options of a request (its key ``rules``, which messages
    name ``field``), each defaulting to ``base`` (the server's)."""
    given = request.get("rules", {})
    if not isinstance(given, Mapping):
        raise _error(field, f"expected an object, got {describe(given)}")
    names = tuple(option.name for option in fields(Rules))
    _once(given, field)
    _keys(given, names, field)
    values: dict[str, object] = {}
    for name in names:
        default = getattr(base, name)
        kind: type = type(default)
        what = "a boolean" if kind is bool else "an integer" if kind is int else "a string"
        values[name] = _typed(given, name, kind, what, default, f"{field}.")
    try:
        return Rules(**values)  # type: ignore[arg-type]
    except ValueError as error:
        raise _error(field, str(error)) from None


def _deal_object(request: Mapping[str, object]) -> Mapping[str, object]:
    if "deal" not in request:
        raise _error("deal", "required key missing (a deal file's JSON object)")
    deal = request["deal"]
    if not isinstance(deal, Mapping):
        raise _error("deal", f"expected a deal file's JSON object, got {describe(deal)}")
    return deal


def _deal(data: Mapping[str, object], rules: Rules) -> Deal:
    try:
        return parse_deal(data, DEAL_SOURCE, rules=rules)
    except FileError as error:
        raise RequestError(str(error)) from None


def view_of(report: Report) -> dict[str, object]:
    """What the page draws of ``report``'s position besides the report: the
    hands by suit in the order a player reads them (tarocks first, in rank
    order), the card on the table, the tricks played, the optimal line
    trick by trick, what each seat has counted, and every legal card with
    its value and what it costs against the best."""
    deal, solution = report.deal, report.solution
    position = report.position
    played = deal.play[: report.at]
    over = position.is_over()
    values = {move.card: move.thirds for move in solution.moves}
    return {
        "contract": deal.contract,
        "declarer": seat_name(deal.declarer),
        "to_move": None if over else seat_name(position.turn),
        "over": over,
        "trick": None if over else position.trick_number,
        "first_trick": deal.first_trick,
        "piles_known": deal.piles is not None,
        "play": [card_name(card) for card in played],
        "hands": {
            seat_name(seat): [
                {"suit": SUIT_NAMES[suit], "cards": hand_names(position.hands[seat] & SUIT_MASKS[suit])}
                for suit in DISPLAY_ORDER
            ]
            for seat in SEATS
        },
        "table": None if not position.trick else {"by": seat_name(position.leader), "card": card_name(position.led)},
        "tricks": [trick_to_json(trick) for trick in position.tricks if trick.winner is not None],
        "line": [trick_to_json(trick) for trick in position.line_tricks(solution.line)],
        "counted": {
            seat_name(seat): {
                "thirds": (thirds_of(deal.piles[seat]) if deal.piles is not None else 0) + position.trick_thirds[seat],
                "tricks": position.tricks_won[seat],
            }
            for seat in SEATS
        },
        "moves": [
            {"card": card_name(card), "thirds": values[card], "loss": abs(solution.thirds - values[card])}
            for card in hand_cards(mask_of(values))
        ],
    }


def position_answer(
    analyser: Analyser, deal: Deal, at: int | None = None, rules: Rules = DEFAULT_RULES, score: bool = False
) -> dict[str, object]:
    """The answer for the position after the first ``at`` cards of
    ``deal``'s play (all of it by default): the report (every legal card's
    value, an optimal line, the announcement table, the settlement when the
    hand is over) and its view (:func:`view_of`)."""
    options = Options(rules=rules, at=at, moves=True, feasibility=True, postmortem=False, score=score)
    try:
        report = analyser.analyse(deal, options)
    except OptionsError as error:
        raise _options_error(error) from None
    except IllegalMoveError as error:
        raise RequestError(f"{DEAL_SOURCE}: {error}") from None
    shown = replace(deal, play=deal.play[: report.at])
    return {"api": API_VERSION, "report": report.to_json(), "view": view_of(report), "notation": to_notation(shown)}


def _options_error(error: OptionsError) -> RequestError:
    """An option's error as the API names options: the request's own by its
    key (``request: score: ...``), a rule option as ``rules.NAME``."""
    if error.given and error.option is not None:
        return _error(error.option, error.message)
    return RequestError(f"{DEAL_SOURCE}: {error.shown(lambda option: f'rules.{option}', 'set')}")


def review_answer(
    analyser: Analyser,
    deal: Deal,
    rules: Rules = DEFAULT_RULES,
    progress: Callable[[int, int], None] | None = None,
    *,
    dealt: DealtFile | None = None,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    jobs: int | None = 1,
    before_play: bool = False,
    decision_samples: int = DEFAULT_DECISION_SAMPLES,
) -> dict[str, object]:
    """The review of ``deal``'s whole play: every card's value before and
    after it and its loss, the mistakes, when each announcement was no
    longer makeable (judged by the net score when the library's default
    says so), and the settlement of a hand played out; and under ``knew``
    every card judged by what its player knew (``kosolve review --json``,
    ``samples`` worlds a card from ``seed`` on ``jobs`` processes, from ``dealt`` when
    the file is a deal as dealt, and then with ``before_play`` its
    decisions before the play too, ``decision_samples`` worlds a group),
    or null with ``knew_why`` for a deal that gives no seat view (an
    ending, no piles).  ``progress`` follows
    the steps of one review and then of the other
    (:meth:`Analyser.analyse`, :func:`~kosolve.review.judging.review`)."""
    options = Options(rules=rules, moves=False, feasibility=False, postmortem=True)
    try:
        report = analyser.analyse(deal, options, progress)
    except OptionsError as error:
        raise _options_error(error) from None
    knew: dict[str, object] | None = None
    why = None
    try:
        knew = review(
            dealt or deal,
            samples=samples,
            seed=seed,
            jobs=jobs,
            rules=rules,
            tt_mb=analyser.tt_mb,
            progress=progress,
            before_play=before_play,
            decision_samples=decision_samples,
        ).to_json()
    except (SeatViewError, ReviewError) as error:
        why = str(error)
    return {"api": API_VERSION, "report": report.to_json(), "knew": knew, "knew_why": why}


def exchange_answer(
    analyser: Analyser,
    file: DealtFile,
    rules: Rules = DEFAULT_RULES,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, object]:
    """The exchange table and par of a deal as dealt, and the file's own
    bid and exchange valued when it names them; ``progress`` follows the
    table (:meth:`Analyser.analyse_exchange`)."""
    report = analyser.analyse_exchange(file, rules, progress=progress)
    return {"api": API_VERSION, "exchange": report.to_json()}


def random_dealt(seed: int, rules: Rules = DEFAULT_RULES) -> DealtFile:
    """A realistic deal as dealt from ``seed``, bid and exchanged by the
    rules of thumb of :mod:`kosolve.dealing`: the deal
    :func:`~kosolve.dealing.deal_game` plays from the same seed.

    >>> from kosolve.dealing import deal_game
    >>> random_dealt(7).play_deal() == deal_game(random.Random(7))
    True
    """
    return deal_bid(random.Random(seed), discard=rules.discard)


class Service:
    """The API's answers from one :class:`Analyser`, whose tables stay warm
    between requests; one request at a time searches (a solver is not
    shared between threads).  ``progress`` of the long answers, the review
    and the exchange table, is called between their searches; an exception
    it raises stops the answer (the web server's time limit)."""

    def __init__(self, tt_mb: float = DEFAULT_BUDGET_MB, rules: Rules = DEFAULT_RULES, threads: int = 1) -> None:
        self.analyser = Analyser(tt_mb, threads)
        self.rules = rules
        # The games' bots search with the service's tables: one bound on memory for all the games.
        self.games = GameTable(rules, self.analyser)
        self._lock = threading.Lock()

    def position(self, request: Mapping[str, object]) -> dict[str, object]:
        """``POST /api/v1/position``: ``deal``, and optionally ``play`` (the
        cards played, in place of the file's), ``score`` and ``rules``."""
        _keys(request, ("deal", "play", "score", "rules"))
        rules = _rules(request, self.rules)
        data = _deal_object(request)
        if "play" in request:
            # The copy keeps the deal's keys, not what the reader noted of them.
            twice = _given_twice(data)
            if twice is not None:
                raise RequestError(f"{DEAL_SOURCE}: {member('', twice)}: key given twice")
            data = {**data, "play": request["play"]}
        score = _typed(request, "score", bool, "a boolean", False)
        deal = _deal(data, rules)
        with self._lock:
            return position_answer(self.analyser, deal, rules=rules, score=score)

    def review(
        self, request: Mapping[str, object], progress: Callable[[int, int], None] | None = None
    ) -> dict[str, object]:
        """``POST /api/v1/review``: the file's play reviewed card by card."""
        _keys(request, ("deal", "rules"))
        rules = _rules(request, self.rules)
        data = _deal_object(request)
        deal = _deal(data, rules)
        # A deal as dealt read twice: its play position, and its exchange for what the defender saw.
        dealt = parse_dealt_file(data, DEAL_SOURCE, rules=rules) if DEALT_KEY in data else None
        with self._lock:
            return review_answer(self.analyser, deal, rules, progress, dealt=dealt)

    def exchange(
        self, request: Mapping[str, object], progress: Callable[[int, int], None] | None = None
    ) -> dict[str, object]:
        """``POST /api/v1/exchange``: the exchange table and par of a deal as dealt."""
        _keys(request, ("deal", "rules"))
        rules = _rules(request, self.rules)
        data = _deal_object(request)
        if DEALT_KEY not in data:
            raise RequestError(f"{DEAL_SOURCE}: not a deal as dealt (no key '{DEALT_KEY}'), so it has no exchange")
        try:
            file = parse_dealt_file(data, DEAL_SOURCE, rules=rules)
        except FileError as error:
            raise RequestError(str(error)) from None
        with self._lock:
            return exchange_answer(self.analyser, file, rules, progress)

    def game(
        self,
        request: Mapping[str, object],
        progress: Callable[[int, int], None] | None = None,
        client: str | None = None,
        *,
        delivered: bool = True,
    ) -> dict[str, object]:
        """``POST /api/v1/game``: ``{"new": {"seat": ..., "bot": ..., "seed":
        ..., "rules": {...}}}`` starts a game against a bot (``rules`` the
        rule options of that game, each defaulting to the server's); ``{"game": ID, "choice": I, "moves": N}``
        takes the user's option ``I`` on the decision of the answer he got
        with ``N`` moves; ``{"game": ID}`` is the game as it stands
        (docs/web.md, "Play a game").  ``client`` is the address the
        request came from (a few games kept each; None: no such bound).
        With ``delivered`` false a game whose end is answered is dropped
        only once :meth:`game_delivered` is called with the answer (the web server, which may
        give up on an answer past its time limit)."""
        _keys(request, ("new", "game", "choice", "moves"))
        try:
            with self._lock:
                if "new" in request:
                    if "game" in request or "choice" in request or "moves" in request:
                        raise _error("new", "starts a game: give no game, choice or moves with it")
                    settings = request["new"]
                    if not isinstance(settings, Mapping):
                        raise _error("new", f"expected an object, got {describe(settings)}")
                    _keys(settings, ("seat", "bot", "seed", "rules"), "new")
                    seat_text = _typed(settings, "seat", str, "forehand or dealer", "forehand", "new.")
                    if seat_text not in SEAT_NAMES:
                        raise _error("new.seat", f"expected forehand or dealer, got {describe(seat_text)}")
                    spec = _typed(settings, "bot", str, "a bot's name", DEFAULT_BOT, "new.")
                    seed = settings.get("seed")
                    if seed is not None and (
                        isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < MAX_SEED
                    ):
                        raise _error("new.seed", f"expected an integer from 0 to 2**63 - 1, got {describe(seed)}")
                    rules = _rules(settings, self.rules, "new.rules")
                    answer = self.games.new(SEAT_NAMES.index(seat_text), spec, seed, client, rules)
                else:
                    key = _typed(request, "game", str, "a game's id", "")
                    if "choice" in request:
                        choice = _typed(request, "choice", int, "an option's index", -1)
                        if "moves" not in request:
                            raise _error("moves", "missing: a choice gives the number of moves of the answer it is on")
                        moves = _typed(request, "moves", int, "the number of moves of the answer chosen on", -1)
                        answer = self.games.choose(key, choice, moves, progress, delivered=delivered)
                    elif "moves" in request:
                        raise _error("moves", 'goes with a choice only: {"game": ID} alone is the game as it stands')
                    else:
                        answer = self.games.resume(key, progress, delivered=delivered)
        except GameRequestError as error:
            raise RequestError(str(error)) from None
        return {"api": API_VERSION, **answer}

    def game_delivered(self, answer: Mapping[str, object]) -> None:
        """The user got ``answer`` of :meth:`game`: a game whose end he got
        is dropped.  It takes no lock a search holds."""
        self.games.delivered(answer)

    def notation(self, request: Mapping[str, object]) -> dict[str, object]:
        """``POST /api/v1/notation``: ``text``, a deal in one line
        (docs/deal-files.md, "One line"); the answer's ``deal`` is its deal
        file's JSON object, for the page to load."""
        _keys(request, ("text", "rules"))
        rules = _rules(request, self.rules)
        text = _typed(request, "text", str, "a deal in one line", "")
        try:
            return {"api": API_VERSION, "deal": notation_json(text, rules)}
        except FileError as error:
            raise RequestError(str(error)) from None

    def random_deal(self, request: Mapping[str, object]) -> dict[str, object]:
        """``POST /api/v1/random``: a realistic deal as dealt, from ``seed``
        (a random one when not given; the answer names it)."""
        _keys(request, ("seed", "rules"))
        rules = _rules(request, self.rules)
        seed = _seed(request.get("seed"), "seed")
        if seed is None:
            seed = random.randrange(MAX_SEED)
        return {"api": API_VERSION, "seed": seed, "deal": dealt_to_json(random_dealt(seed, rules))}


__all__ = [
    "API_VERSION",
    "MAX_REQUEST_BYTES",
    "QUEUE_BOUND",
    "TIME_LIMIT_S",
    "RequestError",
    "Service",
    "exchange_answer",
    "position_answer",
    "random_dealt",
    "read_request",
    "review_answer",
    "view_of",
]
