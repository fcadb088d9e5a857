"""What kosolve answers about a deal, built on the engine: the value and
every card's value (:mod:`~kosolve.analysis.solving`), the announcements each
player can force (:mod:`~kosolve.analysis.goals`), the score-optimal value
(:mod:`~kosolve.analysis.netscore`), the review of a play
(:mod:`~kosolve.analysis.postmortem`), settling into game points
(:mod:`~kosolve.analysis.scoring`), and the full-knowledge auction
(:mod:`~kosolve.analysis.par`).  It may import :mod:`kosolve.model` and
:mod:`kosolve.engine`, never the renderers, the tools or the command line.
"""
