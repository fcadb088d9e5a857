"""Odds from one seat: the worlds a seat view allows (:mod:`~kosolve.sampling.worlds`),
dealt uniformly at random or all of them, each solved exactly through the
library's orchestration, and summarised (:mod:`~kosolve.sampling.odds`).
Perfect-information Monte Carlo, as the Skat and bridge programs do it;
see docs/odds.md.
"""
