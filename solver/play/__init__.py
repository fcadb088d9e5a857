"""Playing from a seat: a whole game as a sequence of decisions
(:mod:`~kosolve.play.game`), the bots that take them from what their seat
knows (:mod:`~kosolve.play.bots`), external bots over a line protocol
(:mod:`~kosolve.play.protocol`), and duplicate matches between two bots
(:mod:`~kosolve.play.arena`); docs/bots.md, docs/arena.md and
docs/protocol.md.  It may import every layer up to the tools (the
realistic dealer and its rules of thumb); the web view and the command
line build on it.
"""
