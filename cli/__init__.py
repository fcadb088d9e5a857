"""The ``kosolve`` command line."""
