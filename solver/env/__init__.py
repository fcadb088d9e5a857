"""Kosakeln for game-AI research: a PettingZoo AEC environment
(:mod:`~kosolve.env.kosakeln_v0`) and an OpenSpiel game
(:mod:`~kosolve.env.openspiel`), both over :mod:`kosolve.play.game` and
encoding what a seat knows alike (:mod:`~kosolve.env.encoding`), with
the exact value of any position a call away; docs/env.md.  They need the
extra ``pip install "kosolve[env]"``; the rest of kosolve works without it.
"""
