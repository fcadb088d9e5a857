"""The review of a played hand by what each player knew
(:mod:`~kosolve.review.judging`): before every card, the worlds the mover
could not tell apart (:mod:`kosolve.sampling.worlds`) are solved exactly
and his legal cards compared by their mean, beside the double-dummy
verdict of the one world that was dealt; see docs/review.md.  By job:
:mod:`~kosolve.review.results` (the values and their JSON),
:mod:`~kosolve.review.worlds` (which worlds a card is judged in, and what
one world says), :mod:`~kosolve.review.statistics` (the means, intervals
and the one definition of each accuracy), :mod:`~kosolve.review.choices`
(the decisions before the play of a deal as dealt: the bid, the
announcements and Kontras, the talon choice and the lay-away, in game
points) and
:mod:`~kosolve.review.judging` (the pipeline, :func:`~kosolve.review.judging.review`).  It may
import :mod:`kosolve.model`, :mod:`kosolve.engine`,
:mod:`kosolve.analysis` and :mod:`kosolve.sampling`; the renderers, the
web view, the batch and the command line build on it.

The subpackage has the name of its one function, so it is callable as
that function: ``kosolve.review(file, samples=20)`` is
``kosolve.review.review(file, samples=20)``, the spelling a type checker
follows.  Both import the pipeline when first called, not with the
subpackage.
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kosolve.review.judging import Review, ReviewError, review


class _CallableSubpackage(types.ModuleType):
    """The class of this module: ``kosolve.review(...)`` calls
    :func:`~kosolve.review.judging.review`, since ``kosolve.review`` can
    name only one thing and the subpackage holds the name."""

    def __call__(self, *args: Any, **kwargs: Any) -> Review:
        from kosolve.review.judging import review

        return review(*args, **kwargs)


def __getattr__(name: str) -> Any:
    if name in __all__:
        from kosolve.review import judging

        return getattr(judging, name)
    raise AttributeError(f"module 'kosolve.review' has no attribute {name!r}")


sys.modules[__name__].__class__ = _CallableSubpackage

__all__ = ["Review", "ReviewError", "review"]
