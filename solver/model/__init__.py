"""The game model: cards and hands as bitmasks (:mod:`~kosolve.model.cards`),
seats, contracts, the rule options and the mutable position
(:mod:`~kosolve.model.game`), the auction's calls and states
(:mod:`~kosolve.model.auction`), the scoring table as data
(:mod:`~kosolve.model.scoring`), and the deal value object with its JSON
file (:mod:`~kosolve.model.deal`).  The bottom layer: it imports nothing else of
kosolve, and everything else may import it.
"""
