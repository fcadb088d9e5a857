"""Tools around the solver: the benchmark (:mod:`~kosolve.tools.bench`), the
fuzzer of every input (:mod:`~kosolve.tools.fuzz`) and the plain
pure-Python reference the search is tested against
(:mod:`~kosolve.tools.reference`, which on purpose imports nothing of
kosolve).  It may import every layer but the command line.
"""
