"""The local web application of ``kosolve serve``: the page and its static
files, and the JSON API of :mod:`kosolve.web.api` over HTTP (Starlette,
served by uvicorn; the extra ``pip install "kosolve[web]"``).

Every answer is JSON; a bad request gets status 400 (413 when too large,
404 and 405 for a wrong path or method) and ``{"api": 1, "error": "one
line"}``, never a traceback page.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Final

import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from kosolve import __version__
from kosolve.web.api import API_VERSION, MAX_REQUEST_BYTES, RequestError, Service, read_request

STATIC: Final = Path(__file__).resolve().parent / "static"
"""The page's HTML, CSS and JavaScript, shipped in the package."""
PREFIX: Final = f"/api/v{API_VERSION}"

Handler = Callable[[Mapping[str, object]], dict[str, object]]


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"api": API_VERSION, "error": message}, status_code=status)


async def _body(request: Request) -> bytes:
    """The request body, refused once it passes :data:`MAX_REQUEST_BYTES`."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_REQUEST_BYTES:
        raise HTTPException(413, f"request: more than {MAX_REQUEST_BYTES >> 20} MB, too large")
    chunks = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_REQUEST_BYTES:
            raise HTTPException(413, f"request: more than {MAX_REQUEST_BYTES >> 20} MB, too large")
        chunks.append(chunk)
    return b"".join(chunks)


def _endpoint(handler: Handler) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        try:
            data = read_request(await _body(request))
            # The search holds a thread for tens of milliseconds; the event
            # loop goes on serving the page meanwhile.
            return JSONResponse(await run_in_threadpool(handler, data))
        except RequestError as error:
            return _error(400, str(error))

    return endpoint


def create_app(service: Service, files: Sequence[tuple[str, object]] = ()) -> Starlette:
    """The application answering from ``service``; ``files`` are the deal
    files given on the command line (name and JSON object), offered by the
    page."""
    listed = {"api": API_VERSION, "files": [{"name": name, "deal": deal} for name, deal in files]}

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    async def no_icon(request: Request) -> Response:
        # Browsers ask for one; "none" beats a 404 in their console.
        return Response(status_code=204)

    async def about(request: Request) -> Response:
        return JSONResponse({"api": API_VERSION, "kosolve": __version__})

    async def file_list(request: Request) -> Response:
        return JSONResponse(listed)

    async def http_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        if error.status_code == 404:
            return _error(404, f"{request.url.path}: no such page (the API is under {PREFIX}/)")
        if error.status_code == 405:
            return _error(405, f"{request.url.path}: method {request.method} not allowed")
        return _error(error.status_code, str(error.detail))

    async def failure(request: Request, error: Exception) -> Response:
        return _error(500, f"internal error: {type(error).__name__}: {' '.join(str(error).split())}")

    posts = {
        "position": service.position,
        "review": service.review,
        "exchange": service.exchange,
        "random": service.random_deal,
    }
    routes = [
        Route("/", index),
        Route("/favicon.ico", no_icon),
        Route(PREFIX, about),
        Route(f"{PREFIX}/files", file_list),
        *(Route(f"{PREFIX}/{name}", _endpoint(handler), methods=["POST"]) for name, handler in posts.items()),
        Mount("/static", StaticFiles(directory=STATIC)),
    ]
    return Starlette(routes=routes, exception_handlers={HTTPException: http_error, Exception: failure})


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


def server(app: Starlette) -> uvicorn.Server:
    return uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off"))


@contextmanager
def serving(service: Service, files: Sequence[tuple[str, object]] = (), host: str = "127.0.0.1") -> Iterator[str]:
    """The application running in a thread on a free port of ``host``, for
    tests and the benchmark; yields its URL and stops it on exit."""
    sock = listen(host, 0)
    running = server(create_app(service, files))
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


__all__ = ["PREFIX", "STATIC", "create_app", "listen", "server", "serving", "url_of"]
