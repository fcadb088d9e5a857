"""Turning analyses into what a player reads: the text report
(:mod:`~kosolve.render.text`), the exchange table
(:mod:`~kosolve.render.exchange`), the odds (:mod:`~kosolve.render.odds`),
the review (:mod:`~kosolve.render.review`) and the scoring table
(:mod:`~kosolve.render.scoring`).  It may import the layers below it up to
:mod:`kosolve.review`; it computes nothing of its own.
"""
