"""Running ``kosolve`` in the test's process, as a user would from a shell."""

from __future__ import annotations

from click.testing import CliRunner, Result

from kosolve.cli.main import cli
from support.schemas import check_output


def run(*args: str, input: str | bytes | None = None, charset: str = "utf-8") -> Result:
    """``kosolve ARGS...`` through click's CliRunner, stdout and stderr
    apart; JSON it printed is checked against its schema."""
    result = CliRunner(charset=charset).invoke(cli, list(args), input=input, prog_name="kosolve")
    if "--json" in args and result.exit_code in (0, 1):
        check_output(result.stdout)
    return result
