"""What kosolve.engine offers a program that searches positions itself:
each name it re-exports is documented in its docstring and is the object
of the module that defines it."""

from __future__ import annotations

import kosolve.engine as engine
from kosolve.engine import _score, _search, _table, errors


def test_every_re_exported_name_is_documented_and_the_defining_modules_own() -> None:
    doc = engine.__doc__ or ""
    for name in engine.__all__:
        assert f"`{name}`" in doc, f"{name} is re-exported but not documented"
        assert any(getattr(home, name, None) is getattr(engine, name) for home in (_search, _score, _table, errors))


def test_a_bot_writer_imports_the_searches_and_their_errors_from_the_package() -> None:
    from kosolve.engine import ScoreSolver, SearchInputError, Solver, TableMemoryError, TableSizeError

    assert (Solver, ScoreSolver) == (_search.Solver, _score.ScoreSolver)
    assert issubclass(TableSizeError, ValueError) and issubclass(TableMemoryError, MemoryError)
    assert issubclass(SearchInputError, ValueError)
