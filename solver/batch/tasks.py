"""The per-deal task of a batch: one deal's text in, one result record out.

A :class:`Work` is one deal of the input (its line number or its file name,
and its bytes) with the :class:`Question` asked of every deal.  The worker
that runs it (:func:`answer`, in a :class:`~kosolve.analysis.pool.WorkerPool`
process or on a Dask worker) parses the deal there, so the parsing is
spread over the workers too, and a bad deal becomes an error record
instead of stopping the batch.

Each kind of question is one entry of :data:`ANSWERS`: a function from the
warm analyser, the parsed JSON, the deal's name and the question to the
JSON object of the result: a play position analysed, a deal as dealt's
exchange table, a seat view's odds (its lines are seat views, each
sampled ``samples`` times from ``seed`` in the worker that takes it), or
a played hand's review by what each player knew (``samples`` worlds a
card, in the worker that takes the hand).

>>> from kosolve.analysis.report import Analyser, Options
>>> text = open("examples/ending.json", "rb").read()
>>> record = answer(Analyser(), Work("line", 3, text, Question("analyse", Options.value_only())))
>>> record["line"], record["report"]["value"], record["report"]["result"]
(3, {'thirds': 111, 'points': 37}, 'won')
>>> answer(Analyser(), Work("line", 4, b"[]", Question("analyse", Options())))
{'line': 4, 'error': 'line 4: expected a JSON object (a deal), got an array'}
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Final

from kosolve.analysis.pool import worker_analyser
from kosolve.analysis.report import Analyser, Options, OptionsError
from kosolve.model.announcements import AnnouncementError
from kosolve.model.dealt import ExchangeError
from kosolve.model.dealt_file import parse_dealt_file
from kosolve.model.files import kind_in, parse_deal, parse_dealt
from kosolve.model.jsonfile import FileError, read_json
from kosolve.model.quoting import source_name
from kosolve.model.view import SeatViewError, parse_view
from kosolve.review.judging import ReviewError, review
from kosolve.sampling.odds import odds
from kosolve.sampling.worlds import NoWorldError

Key = int | str
"""A deal's place in the input: its line number (from 1), or its file's
name within the folder."""

FIELDS: Final = ("line", "file")
"""The key of a result record that names its deal: ``line`` for a file of
deal lines, ``file`` for a folder of deal files."""


@dataclass(frozen=True)
class Question:
    """What the batch computes for every deal: ``kind`` is a key of
    :data:`ANSWERS`, ``options`` what ``kosolve --json`` would be given
    (an exchange table, the odds and the review take only their rules;
    the review also ``score``); ``samples`` and ``seed`` are the odds'
    (``kosolve odds``) and the review's (``kosolve review``)."""

    kind: str
    options: Options
    samples: int = 0
    seed: int = 0

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown kind of question {self.kind!r} (one of {', '.join(KINDS)})")
        if (self.kind in SAMPLED) != (self.samples > 0):
            raise ValueError("the odds and the review, and only they, take a number of samples, at least 1")

    def to_json(self) -> dict[str, object]:
        """The question as its results file records it (docs/batch.md).

        >>> asked = Question("odds", Options(), samples=50).to_json()
        >>> asked["kind"], asked["samples"], asked["options"]["feasibility"], asked["options"]["rules"]["discard"]
        ('odds', 50, True, 'classic')
        """
        return {"kind": self.kind, "options": asdict(self.options), "samples": self.samples, "seed": self.seed}


@dataclass(frozen=True)
class Work:
    """One deal of the input and the question asked of it.  ``problem``
    says why the deal could not even be read (a folder's unreadable file);
    its record is that error."""

    field: str
    key: Key
    text: bytes
    question: Question
    problem: str | None = None

    @property
    def source(self) -> str:
        """The deal's name in its error messages."""
        return f"line {self.key}" if self.field == "line" else str(self.key)


def _analyse(analyser: Analyser, data: object, source: str, question: Question) -> dict[str, object]:
    """What ``kosolve --json`` prints for the deal (a deal as dealt is played
    from its bid and exchange, as ``kosolve`` plays it)."""
    deal = parse_deal(data, source, rules=question.options.rules)
    return analyser.analyse(deal, question.options).to_json()


def _exchange(analyser: Analyser, data: object, source: str, question: Question) -> dict[str, object]:
    """What ``kosolve exchange --json`` prints for the deal as dealt."""
    rules = question.options.rules
    file = parse_dealt_file(data, source, rules=rules)
    return analyser.analyse_exchange(file.dealt, rules, file.declared).to_json()


def _odds(analyser: Analyser, data: object, source: str, question: Question) -> dict[str, object]:
    """What ``kosolve odds --json`` prints for the seat view: its worlds
    solved in this worker, one after another, with its warm analyser (a
    batch spreads its lines, not one line's worlds, over the workers)."""
    view = parse_view(data, source)
    rules = question.options.rules
    found = odds(
        view,
        question.samples,
        question.seed,
        jobs=1,
        rules=rules,
        tt_mb=analyser.tt_mb,
        feasibility=question.options.feasibility,
    )
    return found.to_json()


def _review(analyser: Analyser, data: object, source: str, question: Question) -> dict[str, object]:
    """What ``kosolve review --json`` prints for the played hand: every
    card's worlds solved in this worker with its warm analyser."""
    rules = question.options.rules
    # A deal as dealt is kept whole: its exchange says what the defender saw.
    file = parse_dealt(data, source, rules=rules) if kind_in(data) == "dealt" else parse_deal(data, source, rules=rules)
    found = review(
        file,
        samples=question.samples,
        seed=question.seed,
        jobs=1,
        score=bool(question.options.score),
        rules=rules,
        tt_mb=analyser.tt_mb,
    )
    return found.to_json()


Answer = Callable[[Analyser, object, str, Question], dict[str, object]]

ANSWERS: Final[dict[str, Answer]] = {"analyse": _analyse, "exchange": _exchange, "odds": _odds, "review": _review}
"""Each kind of question and the function that answers it for one deal."""
KINDS: Final = tuple(ANSWERS)
SAMPLED: Final = ("odds", "review")
"""The questions answered from sampled worlds."""
REPORT: Final = "report"
"""The key of a result record that holds the answer."""

_BAD_DEAL: Final = (FileError, OptionsError, ExchangeError, NoWorldError, AnnouncementError, ReviewError, SeatViewError)
"""What a deal that cannot be answered raises: its record says so and the
batch goes on.  Anything else is a fault of kosolve and stops the batch
(what is finished stays in the results)."""


def answer(analyser: Analyser, work: Work) -> dict[str, object]:
    """The result record of one deal: its key, and ``report``, the answer,
    or ``error``, the one-line message of a bad deal."""
    record: dict[str, object] = {work.field: work.key}
    if work.problem is not None:
        return {**record, "error": work.problem}
    try:
        data = read_json(io.BytesIO(work.text), work.source)
        result = ANSWERS[work.question.kind](analyser, data, work.source, work.question)
    except _BAD_DEAL as error:
        # A file's own errors name it already; the rest say what, not where.
        where = "" if isinstance(error, FileError) else f"{source_name(work.source)}: "
        return {**record, "error": where + str(error)}
    # Nested, not merged: the report's own "line" is its line of play.
    return {**record, REPORT: result}


def answer_chunk(works: Sequence[Work], tt_mb: float) -> list[dict[str, object]]:
    """The records of a chunk of deals, with this process's one analyser
    (:func:`~kosolve.analysis.pool.worker_analyser`): what a Dask worker runs."""
    analyser = worker_analyser(tt_mb)
    return [answer(analyser, work) for work in works]


__all__ = ["ANSWERS", "FIELDS", "KINDS", "REPORT", "Key", "Question", "Work", "answer", "answer_chunk"]
