"""``python -m kosolve.cli``: the same as the ``kosolve`` command."""

from kosolve.cli.main import main

if __name__ == "__main__":
    main()
