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
"""
