"""Turning analyses into what a player reads: the text report
(:mod:`~kosolve.render.text`).  It may import :mod:`kosolve.model` and
:mod:`kosolve.analysis`; it computes nothing of its own.
"""
