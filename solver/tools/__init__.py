"""Tools around the solver: realistic dealing (:mod:`~kosolve.tools.dealing`),
the benchmark (:mod:`~kosolve.tools.bench`) and the plain pure-Python
reference the search is tested against (:mod:`~kosolve.tools.reference`,
which on purpose imports nothing of kosolve).  It may import every layer but
the command line.
"""
