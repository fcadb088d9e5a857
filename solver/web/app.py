"""The local web application of ``kosolve serve``: the page and its static
files, and the JSON API of :mod:`kosolve.web.api` over HTTP (Starlette,
served by uvicorn; the extra ``pip install "kosolve[web]"``).

Every answer is JSON; a bad request gets status 400 (413 when too large,
404 and 405 for a wrong path or method) and ``{"api": 1, "error": "one
line"}``, never a traceback page.

The server answers the page it serves and nothing else (docs/web.md): a
request must name the server in its ``Host`` (a loopback name or the
``--host``, and the port), so that a site whose name its owner has pointed
at this machine (DNS rebinding) is refused; a request from a page of
another site is refused (its ``Origin``, ``Sec-Fetch-Site``), and so is a
``POST`` that is not JSON, which such a page could send without asking.

One thread of its own runs the solver, one request at a time, so that the
page and its files never wait for a search; at most ``queue`` requests
wait for it (one more is answered 503), each is answered within
``time_limit_s`` seconds (503 while still waiting, 504 when the review or
the exchange table runs that long: it stops at its next search), and a
``position`` request still waiting is dropped (409) when a newer one of the
same page (``X-Kosolve-Client``) arrives.  A game's move whose answer
came too late was taken all the same: the user asks for the game as it
stands, and cannot choose on a decision he never saw, since a choice names
the answer it is made on (:mod:`kosolve.web.games`).

Each request must arrive whole in time: its head within ``head_timeout_s``
of the connection opening (or of its last answer), its body within
``body_timeout_s`` of its head (else 408, and the connection closed); and
the bodies being received at once hold at most ``body_budget`` bytes
together (one more is answered 503), so that slow or unfinished requests
hold neither the server's sockets nor its memory.
"""

from __future__ import annotations

import asyncio
import functools
import json
import socket
import threading
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import asdict
from pathlib import Path
from typing import Final

import h11
import uvicorn
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from kosolve import __version__
from kosolve.model.quoting import QUOTE_LIMIT, quote
from kosolve.web.api import (
    API_VERSION,
    MAX_REQUEST_BYTES,
    QUEUE_BOUND,
    TIME_LIMIT_S,
    RequestError,
    Service,
    read_request,
)

STATIC: Final = Path(__file__).resolve().parent / "static"
"""The page's HTML, CSS and JavaScript, shipped in the package."""
PREFIX: Final = f"/api/v{API_VERSION}"
LOOPBACK: Final = ("127.0.0.1", "localhost", "::1")
"""The names of this machine that a request's ``Host`` may always give."""
CLIENT_HEADER: Final = "X-Kosolve-Client"
"""The header naming the page a ``position`` request comes from (an id per
page load): a newer request of the same page drops a waiting one."""
HEAD_TIMEOUT_S: Final = 5
"""A connection that has not sent a whole request head this long after it
opened (or after its last answer) is closed, as uvicorn closes an idle one."""
BODY_TIMEOUT_S: Final = 10
"""A request whose body has not arrived whole this long after its head is
answered 408 and its connection closed: 1 MB at 100 KB/s."""
BODY_BUDGET_BYTES: Final = 8 * MAX_REQUEST_BYTES
"""The bytes of request bodies being received at once, all connections
together; a body that would pass it is answered 503.  A deal is a few KB,
so hundreds fit, and eight of the largest."""
RETRY_AFTER_S: Final = 5
"""The ``Retry-After`` of a 503: a full queue drains in a few seconds."""

Progress = Callable[[int, int], None]
Work = Callable[[Mapping[str, object], Progress, str | None], dict[str, object]]
"""A request's solver work: the request, a progress callback to call
between searches, which raises once the answer is no longer wanted, and the
address the request came from (None when unknown)."""


class _JSON(JSONResponse):
    """JSON in ASCII: text of the input with a lone surrogate (a file name
    that is not UTF-8, a JSON ``"\\ud800"``) is escaped, where UTF-8 could
    not encode it."""

    def render(self, content: object) -> bytes:
        return json.dumps(content, allow_nan=False, separators=(",", ":")).encode("ascii")


def _error(status: int, message: str, headers: Mapping[str, str] | None = None) -> JSONResponse:
    return _JSON({"api": API_VERSION, "error": message}, status_code=status, headers=headers)


def _busy(message: str) -> JSONResponse:
    return _error(503, message, {"Retry-After": str(RETRY_AFTER_S)})


def _shown(path: str) -> str:
    """A requested path as a message shows it: quoted when it is long or
    not printable ASCII (it comes from the request)."""
    return path if len(path) <= QUOTE_LIMIT and path.isascii() and path.isprintable() else quote(path)


class _BodyBudget:
    """The bytes of the request bodies being received, across connections,
    and their bound; used in the event loop only."""

    def __init__(self, bound: int) -> None:
        self.bound = bound
        self.held = 0


async def _body(request: Request, budget: _BodyBudget) -> bytes:
    """The request body, refused once it passes :data:`MAX_REQUEST_BYTES`,
    or once the bodies being received would pass ``budget``."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_REQUEST_BYTES:
        raise HTTPException(413, f"request: more than {MAX_REQUEST_BYTES >> 20} MB, too large")
    chunks = []
    held = 0
    try:
        async for chunk in request.stream():
            if held + len(chunk) > MAX_REQUEST_BYTES:
                raise HTTPException(413, f"request: more than {MAX_REQUEST_BYTES >> 20} MB, too large")
            if budget.held + len(chunk) > budget.bound:
                raise HTTPException(
                    503,
                    "request: the server is receiving too many request bodies at once; try again shortly",
                    {"Retry-After": str(RETRY_AFTER_S)},
                )
            budget.held += len(chunk)
            held += len(chunk)
            chunks.append(chunk)
    except ClientDisconnect:
        # Gone, or cut off by the body's time limit, which answered already.
        raise HTTPException(408, "request: the body did not arrive whole") from None
    finally:
        budget.held -= held
    return b"".join(chunks)


class _Stopped(Exception):
    """Raised from a job's progress callback once nobody waits for its
    answer: the analysis stops between two searches."""


class _Superseded(Exception):
    """The answer of a job dropped for a newer one of the same page."""


class _Job:
    """One request's solver work; its ``answer`` is settled in the event
    loop that waits for it."""

    def __init__(self, work: Callable[[Progress], dict[str, object]], client: str | None) -> None:
        self.work = work
        self.client = client
        self.loop = asyncio.get_running_loop()
        self.answer: asyncio.Future[dict[str, object]] = self.loop.create_future()
        self.stop = False

    def check(self, done: int, total: int) -> None:
        if self.stop:
            raise _Stopped

    def settle(self, outcome: dict[str, object] | Exception) -> None:
        # Answered meanwhile: past the time limit, or dropped for a newer one.
        if self.answer.done():
            return
        if isinstance(outcome, Exception):
            self.answer.set_exception(outcome)
        else:
            self.answer.set_result(outcome)


class _SolverQueue:
    """The solver's own thread and the jobs waiting for it, in the order
    they came: one runs at a time (the service has one set of tables), the
    event loop and the thread pool that serves files never wait for it, and
    at most ``bound`` wait.  :meth:`submit` and :meth:`withdraw` are called
    in the event loop, which owns the jobs' answers."""

    def __init__(self, bound: int) -> None:
        self.bound = bound
        self._waiting: deque[_Job] = deque()
        self._changed = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="kosolve-solver", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def close(self) -> None:
        """Stop the thread once its job is done (a stopped one ends at its
        next search) and wait for it."""
        with self._changed:
            self._closed = True
            self._changed.notify()
        self._thread.join()

    def submit(self, job: _Job) -> bool:
        """Queue ``job``, first dropping the waiting jobs of its client;
        False when ``bound`` jobs wait already."""
        with self._changed:
            if job.client is not None:
                for older in [waiting for waiting in self._waiting if waiting.client == job.client]:
                    self._waiting.remove(older)
                    older.answer.set_exception(_Superseded())
            if len(self._waiting) >= self.bound:
                return False
            self._waiting.append(job)
            self._changed.notify()
        return True

    def withdraw(self, job: _Job) -> bool:
        """Give up on ``job``'s answer: True when it was still waiting (it is
        dropped), False when it had started (it stops at its next search)."""
        job.answer.cancel()
        with self._changed:
            if job in self._waiting:
                self._waiting.remove(job)
                return True
            job.stop = True
            return False

    def _run(self) -> None:
        while True:
            with self._changed:
                while not self._waiting and not self._closed:
                    self._changed.wait()
                if self._closed:
                    return
                job = self._waiting.popleft()
            outcome: dict[str, object] | Exception
            try:
                outcome = job.work(job.check)
            except Exception as error:
                outcome = error
            try:
                job.loop.call_soon_threadsafe(job.settle, outcome)
            except RuntimeError:
                # The event loop is closed: the server was made to stop at once
                # (Ctrl-C twice), and nobody waits for the answer.
                return


def _solver_endpoint(
    solver: _SolverQueue,
    work: Work,
    time_limit_s: float,
    budget: _BodyBudget,
    *,
    superseded: bool = False,
    late: str | None = None,
    delivered: Callable[[dict[str, object]], None] | None = None,
) -> Callable[[Request], Awaitable[Response]]:
    """The endpoint of ``work``, run on the solver's thread; with
    ``superseded`` a newer request of the same page drops a waiting one;
    ``late`` is the message of its 504 (work still running past the time
    limit); ``delivered`` is told of each answer given, in the event loop,
    where the choice between the answer and the 504 is made."""

    async def endpoint(request: Request) -> Response:
        try:
            data = read_request(await _body(request, budget))
        except RequestError as error:
            return _error(400, str(error))
        client = request.headers.get(CLIENT_HEADER) if superseded else None
        address = None if request.client is None else request.client.host
        job = _Job(lambda progress: work(data, progress, address), client)
        if not solver.submit(job):
            return _busy(f"request: {solver.bound} requests wait for the solver already; try again shortly")
        try:
            await asyncio.wait({job.answer}, timeout=time_limit_s)
        finally:
            # Past the time limit, or the server stopping: nobody waits for it.
            given_up = not job.answer.done()
            still_waiting = given_up and solver.withdraw(job)
        if still_waiting:
            return _busy(f"request: waited {time_limit_s:g} s for the solver, busy with other requests; try again")
        if given_up:
            return _error(504, late or f"request: stopped after {time_limit_s:g} s, the server's time limit")
        try:
            answer = job.answer.result()
        except RequestError as error:
            return _error(400, str(error))
        except _Superseded:
            return _error(409, "request: superseded by a newer position request of the same page")
        if delivered is not None:
            delivered(answer)
        return _JSON(answer)

    return endpoint


def _host_name(name: str) -> str:
    """A host name or address as a ``Host`` header writes it."""
    return f"[{name.lower()}]" if ":" in name else name.lower()


class _SameOrigin:
    """Refuses what a page of another site may send: a ``Host`` that is not
    one of the server's names with its port (the address the connection
    reached, the loopback names and the name it was given), an ``Origin``
    other than those, ``Sec-Fetch-Site: cross-site`` (but for following a
    link to the page), and a ``POST`` whose body is not JSON."""

    def __init__(self, app: ASGIApp, host: str) -> None:
        self.app = app
        self.names = frozenset(_host_name(name) for name in (*LOOPBACK, host))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        refusal = self.refusal(scope) if scope["type"] == "http" else None
        if refusal is None:
            await self.app(scope, receive, send)
        else:
            await _error(*refusal)(scope, receive, send)

    def hosts(self, scope: Scope) -> frozenset[str]:
        """The ``Host`` values that name this server."""
        if scope.get("server") is None:
            return frozenset()
        address, port = scope["server"]
        names = self.names | {_host_name(address)}
        # A browser leaves the port of HTTP out.
        return frozenset(f"{name}:{port}" for name in names) | (names if port == 80 else frozenset())

    def refusal(self, scope: Scope) -> tuple[int, str] | None:
        headers = Headers(scope=scope)
        hosts = self.hosts(scope)
        host = headers.get("host", "")
        if host.lower() not in hosts:
            return 400, f"request: Host {quote(host)} does not name this server (its address or --host, and its port)"
        origin = headers.get("origin")
        if origin is not None and origin.lower() not in {f"http://{name}" for name in hosts}:
            return 403, f"request: Origin {quote(origin)}: a page of another site may not use this server"
        navigating = scope["method"] == "GET" and headers.get("sec-fetch-mode") == "navigate"
        if headers.get("sec-fetch-site") == "cross-site" and not navigating:
            return 403, "request: Sec-Fetch-Site cross-site: a page of another site may not use this server"
        kind = headers.get("content-type", "")
        if scope["method"] == "POST" and kind.partition(";")[0].strip().lower() != "application/json":
            return 415, f"request: Content-Type {quote(kind)}: expected application/json"
        return None


def create_app(
    service: Service,
    files: Sequence[tuple[str, object]] = (),
    host: str = "127.0.0.1",
    queue: int = QUEUE_BOUND,
    time_limit_s: float = TIME_LIMIT_S,
    body_budget: int = BODY_BUDGET_BYTES,
) -> Starlette:
    """The application answering from ``service``; ``files`` are the deal
    files given on the command line (name and JSON object), offered by the
    page; ``host`` is the name it was asked to listen on, which requests
    may give as their ``Host``; at most ``queue`` requests wait for the
    solver, each answered within ``time_limit_s`` seconds; the bodies
    being received hold at most ``body_budget`` bytes together."""
    listed = {"api": API_VERSION, "files": [{"name": name, "deal": deal} for name, deal in files]}
    solver = _SolverQueue(queue)
    budget = _BodyBudget(body_budget)

    @asynccontextmanager
    async def running(app: Starlette) -> AsyncIterator[None]:
        solver.start()
        try:
            yield
        finally:
            await asyncio.to_thread(solver.close)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    async def no_icon(request: Request) -> Response:
        # Browsers ask for one; "none" beats a 404 in their console.
        return Response(status_code=204)

    async def about(request: Request) -> Response:
        # The server's rules: the page's game form starts from them.
        return _JSON({"api": API_VERSION, "kosolve": __version__, "rules": asdict(service.rules)})

    async def file_list(request: Request) -> Response:
        return _JSON(listed)

    async def random_deal(request: Request) -> Response:
        # Dealing takes a fraction of a millisecond and searches nothing.
        try:
            return _JSON(service.random_deal(read_request(await _body(request, budget))))
        except RequestError as error:
            return _error(400, str(error))

    async def notation(request: Request) -> Response:
        # Reading a line searches nothing either.
        try:
            return _JSON(service.notation(read_request(await _body(request, budget))))
        except RequestError as error:
            return _error(400, str(error))

    async def http_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        path = _shown(request.url.path)
        if error.status_code == 404:
            return _error(404, f"{path}: no such page (the API is under {PREFIX}/)")
        if error.status_code == 405:
            return _error(405, f"{path}: method {request.method} not allowed")
        return _error(error.status_code, str(error.detail), error.headers)

    async def failure(request: Request, error: Exception) -> Response:
        return _error(500, f"internal error: {type(error).__name__}: {' '.join(str(error).split())}")

    def game(request: Mapping[str, object], progress: Progress, address: str | None) -> dict[str, object]:
        # A game's end is dropped once given (delivered): it may come too late.
        return service.game(request, progress, address, delivered=False)

    late_game = (
        f"request: game: no answer within {time_limit_s:g} s, the server's time limit; the move was taken all"
        ' the same: ask for the game with {"game": ID} alone (a new game: start another)'
    )
    solved = functools.partial(_solver_endpoint, solver, time_limit_s=time_limit_s, budget=budget)
    routes = [
        Route("/", index),
        Route("/favicon.ico", no_icon),
        Route(PREFIX, about),
        Route(f"{PREFIX}/files", file_list),
        Route(
            f"{PREFIX}/position",
            solved(lambda request, progress, address: service.position(request), superseded=True),
            methods=["POST"],
        ),
        Route(
            f"{PREFIX}/review",
            solved(lambda request, progress, address: service.review(request, progress)),
            methods=["POST"],
        ),
        Route(
            f"{PREFIX}/exchange",
            solved(lambda request, progress, address: service.exchange(request, progress)),
            methods=["POST"],
        ),
        Route(f"{PREFIX}/game", solved(game, late=late_game, delivered=service.game_delivered), methods=["POST"]),
        Route(f"{PREFIX}/random", random_deal, methods=["POST"]),
        Route(f"{PREFIX}/notation", notation, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC)),
    ]
    return Starlette(
        routes=routes,
        middleware=[Middleware(_SameOrigin, host=host)],
        exception_handlers={HTTPException: http_error, Exception: failure},
        lifespan=running,
    )


class _TimeLimits(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with time limits on each request: its head
    within the config's ``timeout_keep_alive`` of the connection opening
    (or of its last answer), its body within :attr:`body_timeout_s` of its
    head.  uvicorn closes a connection idle after an answer, but neither
    one that sends nothing before its first request nor one that sends part
    of a request's head or body and then nothing (or a byte now and then);
    each would hold its socket for good, and a body its memory."""

    body_timeout_s: float = BODY_TIMEOUT_S
    _head_timer: asyncio.TimerHandle | None = None
    _body_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._await_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_waiting()
        self._stop_body()
        super().connection_lost(exc)

    def handle_events(self) -> None:
        super().handle_events()
        state = self.conn.their_state
        if state is not h11.IDLE:
            self._stop_waiting()
        if state is h11.SEND_BODY:
            if self._body_timer is None:
                self._body_timer = self.loop.call_later(self.body_timeout_s, self._body_late)
        else:
            self._stop_body()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self._await_head()

    def _await_head(self) -> None:
        self._stop_waiting()
        self._head_timer = self.loop.call_later(self.timeout_keep_alive, self.timeout_keep_alive_handler)

    def _stop_waiting(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _stop_body(self) -> None:
        if self._body_timer is not None:
            self._body_timer.cancel()
            self._body_timer = None

    def _body_late(self) -> None:
        """The body did not arrive in time: 408, unless the application has
        answered already, and the connection closed."""
        self._body_timer = None
        if self.transport.is_closing():
            return
        cycle = self.cycle
        if cycle is not None and not cycle.response_started:
            # The application, waiting for the rest of the body, is told the
            # client is gone, and its own answer goes nowhere.
            cycle.disconnected = True
            cycle.message_event.set()
            body = json.dumps(
                {"api": API_VERSION, "error": f"request: the body did not arrive within {self.body_timeout_s:g} s"}
            ).encode("ascii")
            headers = [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode("ascii")),
                (b"connection", b"close"),
            ]
            events = (
                h11.Response(status_code=408, headers=headers, reason=b"Request Timeout"),
                h11.Data(data=body),
                h11.EndOfMessage(),
            )
            self.transport.write(b"".join(self.conn.send(event) or b"" for event in events))
        self.transport.close()


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host`` and ``port`` (0: a free port); raises
    :class:`OSError` when it cannot."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def server(
    app: Starlette, head_timeout_s: int = HEAD_TIMEOUT_S, body_timeout_s: float = BODY_TIMEOUT_S
) -> uvicorn.Server:
    """The uvicorn server of ``app``: HTTP/1.1, a connection closed when it
    sends no whole request head within ``head_timeout_s`` seconds, or a
    request's body within ``body_timeout_s`` of its head (answered 408)."""

    # A class of this server's own: uvicorn makes each connection's protocol
    # from the class and the config, which has no room for the body's limit.
    class Protocol(_TimeLimits):
        pass

    Protocol.body_timeout_s = body_timeout_s
    config = uvicorn.Config(
        app, http=Protocol, timeout_keep_alive=head_timeout_s, log_level="warning", access_log=False, lifespan="on"
    )
    return uvicorn.Server(config)


@contextmanager
def serving(
    service: Service,
    files: Sequence[tuple[str, object]] = (),
    host: str = "127.0.0.1",
    *,
    queue: int = QUEUE_BOUND,
    time_limit_s: float = TIME_LIMIT_S,
    head_timeout_s: int = HEAD_TIMEOUT_S,
    body_timeout_s: float = BODY_TIMEOUT_S,
    body_budget: int = BODY_BUDGET_BYTES,
) -> Iterator[str]:
    """The application running in a thread on a free port of ``host``, for
    tests and the benchmark; yields its URL and stops it on exit."""
    sock = listen(host, 0)
    app = create_app(service, files, host, queue, time_limit_s, body_budget)
    running = server(app, head_timeout_s, body_timeout_s)
    thread = threading.Thread(target=running.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        while not running.started:
            if not thread.is_alive():
                raise RuntimeError("the web server did not start")
            threading.Event().wait(0.01)
        yield url_of(sock)
    finally:
        running.should_exit = True
        thread.join(timeout=10)
        sock.close()


__all__ = [
    "BODY_BUDGET_BYTES",
    "BODY_TIMEOUT_S",
    "CLIENT_HEADER",
    "HEAD_TIMEOUT_S",
    "LOOPBACK",
    "PREFIX",
    "STATIC",
    "create_app",
    "listen",
    "server",
    "serving",
    "url_of",
]
