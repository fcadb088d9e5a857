"""``kosolve serve``: the web view on this machine, the local web
application of :mod:`kosolve.web.app` (the extra ``kosolve[web]``)."""

from __future__ import annotations

import ipaddress
import threading
import webbrowser

import click

from kosolve.cli.loading import load_viewed
from kosolve.cli.options import rules_options, threads_option, tt_mb_option
from kosolve.cli.running import tables
from kosolve.model.game import Rules
from kosolve.web.api import QUEUE_BOUND, TIME_LIMIT_S, Service

BROWSER_DELAY_S = 0.5
"""The browser opens this long after the server starts listening."""


@click.command("serve")
@click.argument("files", metavar="[DEAL.json...]", nargs=-1, type=click.Path(readable=False))
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="The address to listen on; requests may also name the server by it. Any other than a loopback address"
    " lets the network use the solver and read the files served.",
)
@click.option(
    "--port", type=click.IntRange(0, 65535), default=0, show_default=True, help="The port; 0 takes a free one."
)
@click.option("--browser/--no-browser", default=True, show_default=True, help="Open the page in the web browser.")
@click.option(
    "--queue",
    type=click.IntRange(min=1),
    default=QUEUE_BOUND,
    show_default=True,
    metavar="N",
    help="The most requests that wait for the solver; one more is answered 503 (busy).",
)
@click.option(
    "--time-limit",
    type=click.IntRange(min=1),
    default=TIME_LIMIT_S,
    show_default=True,
    metavar="S",
    help="Seconds within which a request for the solver is answered, its wait included: 503 while it still"
    " waits, 504 when it still runs (a review or an exchange table stops there; a game's move is taken, and"
    " the game asked for again shows it).",
)
@tt_mb_option
@threads_option
@rules_options
def serve_command(
    files: tuple[str, ...],
    host: str,
    port: int,
    browser: bool,
    queue: int,
    time_limit: int,
    tt_mb: float,
    threads: int,
    rules: Rules,
) -> None:
    """Serve the web view of kosolve on this machine and print its URL: load
    a deal file (open it, drop it on the page or paste its JSON; deals as
    dealt too) or deal a random realistic one, and click through the hand.
    Every legal card of the player to move shows the declarer's points
    after it and what it costs against the best; click a card to play it,
    undo and redo with the buttons or the arrow keys, jump to any card of
    the file's play, play the best line.  The file's play is a timeline
    with each card's value and loss and the mistakes marked; beside it what
    each player can still force, the settlement when the hand is over, and
    for a deal as dealt the exchange table and par.  The DEAL.json files
    given are offered on the page.  The JSON API under it is in
    docs/web.md.  Needs the extra: pip install "kosolve[web]".

    The server answers its own page only: a request must name it in its
    Host (127.0.0.1, localhost, [::1], its address or --host, with the
    port); one from a page of another site (its Origin) is refused, and
    so is a POST that is not application/json.  One request at a time
    searches, while the page and its files are served; at most --queue
    requests wait, and each is answered within the time limit.

    \b
    Examples:
      kosolve serve examples/played.json examples/dealt.json
      kosolve serve --port 8000 --no-browser
    """
    viewed = [load_viewed(file, rules) for file in files]
    try:
        from kosolve.web.app import create_app, listen, server, url_of
    except ImportError as error:
        raise click.ClickException(f'kosolve serve needs the web extra (pip install "kosolve[web]"): {error}') from None
    with tables(tt_mb):
        service = Service(tt_mb, rules, threads)
    try:
        sock = listen(host, port)
    except OSError as error:
        raise click.ClickException(f"cannot listen on {host} port {port}: {error.strerror or error}") from None
    url = url_of(sock)
    click.echo(url)
    if not ipaddress.ip_address(sock.getsockname()[0]).is_loopback:
        click.echo(
            f"kosolve serve: warning: {host} is not a loopback address: anyone who can reach this machine"
            " can use its solver and read the deal files served",
            err=True,
        )
    click.echo("kosolve serves the page there; Ctrl-C stops it", err=True)
    if browser:
        threading.Timer(BROWSER_DELAY_S, webbrowser.open, [url]).start()
    app = create_app(service, [(name, data) for name, data, _, _ in viewed], host, queue, time_limit)
    server(app).run(sockets=[sock])
