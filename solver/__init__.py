"""kosolve: the exact double-dummy solver for Kosakeln."""

from kosolve._version import __version__

__all__ = ["__version__"]
