"""The error the compiled searches raise for arguments they refuse, before
they drop the GIL: a position that cannot arise, an unknown goal, a leaf
table of the wrong size.  A ``ValueError``, like every domain error of
kosolve."""


class SearchInputError(ValueError):
    """Arguments a search refuses; the message says which rule they break."""
