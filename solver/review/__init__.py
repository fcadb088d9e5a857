"""The review of a played hand by what each player knew
(:mod:`~kosolve.review.judging`): before every card, the worlds the mover
could not tell apart (:mod:`kosolve.sampling.worlds`) are solved exactly
and his legal cards compared by their mean, beside the double-dummy
verdict of the one world that was dealt; see docs/review.md.  It may
import :mod:`kosolve.model`, :mod:`kosolve.engine`,
:mod:`kosolve.analysis` and :mod:`kosolve.sampling`; the renderers, the
web view, the batch and the command line build on it.
"""
