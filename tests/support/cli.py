"""Running ``kosolve`` in the test's process, as a user would from a shell."""

from __future__ import annotations

from click.testing import CliRunner, Result

from kosolve.cli.main import cli


def run(*args: str, input: str | bytes | None = None, charset: str = "utf-8") -> Result:
    """``kosolve ARGS...`` through click's CliRunner, stdout and stderr apart."""
    return CliRunner(charset=charset).invoke(cli, list(args), input=input, prog_name="kosolve")
