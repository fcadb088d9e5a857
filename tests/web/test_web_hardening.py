"""What ``kosolve serve`` refuses and how it holds up under load: requests
that do not name the server or come from a page of another site, bodies
that are not JSON, odd and repeated keys; the solver's queue, its bound and
its time limit, with the page's files served meanwhile; connections that
never send a whole request.  Skipped without the extra ``kosolve[web]``."""

from __future__ import annotations

import functools
import http.client
import json
import queue
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait

import pytest
from support import example, fast_first

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from kosolve.web.api import RequestError, Service, read_request
from kosolve.web.app import serving

FAST_S = 2.0
"""What "at once" means for a file served while the solver is busy: generous,
for a loaded machine with two cores."""
JSON = {"Content-Type": "application/json"}


class Answer:
    """One HTTP answer: status, headers, body."""

    def __init__(self, status: int, headers: Mapping[str, str], body: bytes) -> None:
        self.status = status
        self.headers = headers
        self.body = body

    @property
    def error(self) -> str:
        message: str = json.loads(self.body)["error"]
        return message


def address(url: str) -> tuple[str, int]:
    host, port = url.removeprefix("http://").rstrip("/").rsplit(":", 1)
    return host, int(port)


def call(
    url: str, method: str, path: str, body: bytes | None = None, headers: Mapping[str, str] | None = None
) -> Answer:
    """One request with exactly ``headers`` (a ``Host`` among them replaces
    the one http.client writes)."""
    connection = http.client.HTTPConnection(*address(url), timeout=60)
    try:
        connection.request(method, path, body=body, headers=dict(headers or {}))
        response = connection.getresponse()
        return Answer(response.status, {k.lower(): v for k, v in response.getheaders()}, response.read())
    finally:
        connection.close()


def post(url: str, path: str, data: object, headers: Mapping[str, str] | None = None) -> Answer:
    return call(url, "POST", path, json.dumps(data).encode(), {**JSON, **(headers or {})})


def assert_one_line(answer: Answer, status: int, start: str) -> None:
    assert (answer.status, answer.headers["content-type"]) == (status, "application/json")
    assert json.loads(answer.body)["api"] == 1
    assert answer.error.startswith(start) and "\n" not in answer.error and len(answer.error) < 200, answer.error


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with serving(Service(tt_mb=16), [("played.json", example("played.json"))]) as served:
        yield served


# ---- who may ask ----------------------------------------------------------


@pytest.mark.parametrize("host", ["evil.example:{port}", "127.0.0.1:1", "localhost", "127.0.0.1:{port}.evil.example"])
def test_a_foreign_host_is_refused(url: str, host: str) -> None:
    # What a page of a site whose name points at 127.0.0.1 (DNS rebinding) sends.
    headers = {"Host": host.format(port=address(url)[1])}
    assert_one_line(call(url, "GET", "/api/v1/files", headers=headers), 400, "request: Host ")
    assert_one_line(post(url, "/api/v1/position", {"deal": example("played.json")}, headers), 400, "request: Host ")


def test_a_request_without_host_is_refused(url: str) -> None:
    with socket.create_connection(address(url), timeout=10) as sock:
        sock.sendall(b"GET /api/v1/files HTTP/1.0\r\n\r\n")
        answer = b"".join(iter(functools.partial(sock.recv, 65536), b""))
    assert answer.startswith(b"HTTP/1.1 400 ") and b"request: Host ''" in answer


@pytest.mark.parametrize("name", ["127.0.0.1", "localhost", "LocalHost", "[::1]"])
def test_the_loopback_names_are_answered(url: str, name: str) -> None:
    answer = call(url, "GET", "/api/v1/files", headers={"Host": f"{name}:{address(url)[1]}"})
    assert answer.status == 200 and json.loads(answer.body)["files"][0]["name"] == "played.json"


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://evil.example"},
        {"Origin": "null"},
        {"Origin": "http://127.0.0.1:1"},
        {"Origin": "https://{host}"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "cors"},
    ],
)
def test_a_cross_site_request_is_refused(url: str, headers: dict[str, str]) -> None:
    sent = {key: value.format(host=url.removeprefix("http://").rstrip("/")) for key, value in headers.items()}
    assert_one_line(post(url, "/api/v1/position", {"deal": example("played.json")}, sent), 403, "request: ")
    assert_one_line(call(url, "GET", "/api/v1/files", headers=sent), 403, "request: ")


def test_a_link_from_another_site_opens_the_page(url: str) -> None:
    headers = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"}
    answer = call(url, "GET", "/", headers=headers)
    assert answer.status == 200 and b"static/app.js" in answer.body


@pytest.mark.parametrize("kind", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data", None])
def test_a_post_that_is_not_json_is_refused(url: str, kind: str | None) -> None:
    # A page of another site may send these without asking (no preflight).
    headers = {} if kind is None else {"Content-Type": kind}
    body = json.dumps({"deal": example("played.json")}).encode()
    assert_one_line(call(url, "POST", "/api/v1/position", body, headers), 415, "request: Content-Type ")


def test_a_request_of_the_page_is_answered(url: str) -> None:
    # As a browser sends them from the page itself.
    origin = url.rstrip("/")
    page = {"Origin": origin, "Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "cors"}
    answer = post(url, "/api/v1/position", {"deal": example("played.json")}, page)
    assert answer.status == 200 and json.loads(answer.body)["view"]["contract"] == "zweiblatt"
    kind = {**page, "Content-Type": "application/json; charset=UTF-8"}
    assert call(url, "POST", "/api/v1/random", b'{"seed": 1}', kind).status == 200
    assert call(url, "GET", "/api/v1/files", headers={"Sec-Fetch-Site": "same-origin"}).status == 200
    assert call(url, "GET", "/", headers={"Sec-Fetch-Site": "none", "Sec-Fetch-Mode": "navigate"}).status == 200


# ---- what a request may hold --------------------------------------------------


@pytest.mark.parametrize(
    ("body", "start"),
    [
        (b'{"\\ud800": 1}', "request: ['\\ud800']: unknown key"),
        (b'{"deal": {}, "rules": {"\\udfff": true}}', "request: rules['\\udfff']: unknown key"),
        (b'{"' + b"k" * 100_000 + b'": 1}', "request: ['" + "k" * 40 + "'...]: unknown key"),
        (b'{"deal": {}, "rules": {"' + b"r" * 100_000 + b'": 1}}', "request: rules['" + "r" * 40 + "'...]"),
    ],
    ids=["lone surrogate", "lone surrogate in rules", "100 KB", "100 KB in rules"],
)
def test_an_odd_key_is_quoted_and_shortened(url: str, body: bytes, start: str) -> None:
    assert_one_line(call(url, "POST", "/api/v1/position", body, JSON), 400, start)


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        ('{"deal": {"version": 1, "version": 1}, "play": []}', "deal: version: key given twice"),
        (
            '{"deal": {"version": 1}, "rules": {"kontra": true, "kontra": false}}',
            "request: rules.kontra: key given twice",
        ),
        ('{"deal": {"version": 1, "\\u0000": 1, "\\u0000": 2}, "play": []}', "deal: ['\\x00']: key given twice"),
    ],
)
def test_a_key_given_twice_is_refused(url: str, request_: str, message: str) -> None:
    with pytest.raises(RequestError) as raised:
        Service(tt_mb=4).position(read_request(request_.encode()))
    assert str(raised.value) == message
    answer = call(url, "POST", "/api/v1/position", request_.encode(), JSON)
    assert (answer.status, answer.error) == (400, message)


def test_a_file_name_that_is_not_utf8_is_listed() -> None:
    # A file system name undecodable as UTF-8 reaches Python as lone surrogates.
    name = "d\udcffal.json"
    with serving(Service(tt_mb=4), [(name, example("played.json"))]) as url:
        answer = call(url, "GET", "/api/v1/files")
    assert answer.status == 200 and json.loads(answer.body)["files"][0]["name"] == name


# ---- the solver's queue ---------------------------------------------------------


class Gated(Service):
    """A service whose review holds the solver until ``gate`` opens, calling
    its progress between steps as a long analysis does (with ``steps``; a
    single search calls none); ``ended`` says how each review ended."""

    def __init__(self, steps: bool = True) -> None:
        super().__init__(tt_mb=4)
        self.steps = steps
        self.gate = threading.Event()
        self.started = threading.Event()
        self.ended: queue.Queue[str] = queue.Queue()

    def review(
        self, request: Mapping[str, object], progress: Callable[[int, int], None] | None = None
    ) -> dict[str, object]:
        assert progress is not None
        self.started.set()
        try:
            while not self.gate.wait(0.01):
                if self.steps:
                    progress(0, 1)
        except Exception as error:
            self.ended.put(type(error).__name__)
            raise
        self.ended.put("finished")
        return {"api": 1, "review": "held"}


def position_of(play: list[str]) -> dict[str, object]:
    return {"deal": example("played.json"), "play": play}


def test_the_page_is_served_while_the_solver_is_busy() -> None:
    class Slow(Service):
        def __init__(self) -> None:
            super().__init__(tt_mb=4)
            self.held = threading.Lock()
            self.searching = threading.Event()

        def position(self, request: Mapping[str, object]) -> dict[str, object]:
            # A search that holds the solver a tenth of a second.
            with self.held:
                self.searching.set()
                time.sleep(0.1)
            return super().position(request)

    service = Slow()
    with serving(service) as url, ThreadPoolExecutor(80) as pool:
        clicks = [pool.submit(post, url, "/api/v1/position", position_of([])) for _ in range(80)]
        assert service.searching.wait(30)
        for path in ("/static/app.js", "/static/app.css", "/", "/api/v1", "/api/v1/files"):
            start = time.perf_counter()
            assert call(url, "GET", path).status == 200
            assert time.perf_counter() - start < FAST_S, path
        answers = [click.result() for click in clicks]
    assert {answer.status for answer in answers} <= {200, 503}
    assert sum(answer.status == 200 for answer in answers) >= 33  # one searching, 32 waiting
    for answer in answers:
        if answer.status == 503:
            assert_one_line(answer, 503, "request: 32 requests wait for the solver already")
            assert answer.headers["retry-after"].isdigit()


def first_done(futures: list[Future[Answer]]) -> Future[Answer]:
    done, _ = wait(futures, timeout=30, return_when=FIRST_COMPLETED)
    assert done, "no answer within 30 s"
    return next(iter(done))


def test_past_the_queue_bound_the_answer_is_503() -> None:
    service = Gated()
    with serving(service, queue=2) as url, ThreadPoolExecutor(4) as pool:
        held = pool.submit(post, url, "/api/v1/review", {"deal": example("played.json")})
        assert service.started.wait(30)
        clicks = [pool.submit(post, url, "/api/v1/position", position_of([])) for _ in range(3)]
        refused = first_done(clicks).result()
        assert_one_line(refused, 503, "request: 2 requests wait for the solver already; try again")
        assert refused.headers["retry-after"] == "5"
        service.gate.set()
        assert held.result().status == 200
        assert sorted(click.result().status for click in clicks) == [200, 200, 503]


def test_past_the_time_limit_a_waiting_request_is_503() -> None:
    # One search that cannot stop holds the solver past the limit.
    service = Gated(steps=False)
    with serving(service, time_limit_s=1) as url, ThreadPoolExecutor(1) as pool:
        held = pool.submit(post, url, "/api/v1/review", {"deal": example("played.json")})
        assert service.started.wait(30)
        start = time.perf_counter()
        waiting = post(url, "/api/v1/position", position_of([]))
        assert 0.9 < time.perf_counter() - start < 1 + FAST_S
        assert_one_line(waiting, 503, "request: waited 1 s for the solver, busy with other requests")
        assert waiting.headers["retry-after"] == "5"
        assert_one_line(held.result(), 504, "request: stopped after 1 s, the server's time limit")
        service.gate.set()
        assert service.ended.get(timeout=10) == "finished"
        assert post(url, "/api/v1/position", position_of([])).status == 200


def test_past_the_time_limit_a_long_answer_is_504_and_stops() -> None:
    service = Gated()
    with serving(service, time_limit_s=1) as url:
        start = time.perf_counter()
        assert_one_line(
            post(url, "/api/v1/review", {"deal": example("played.json")}), 504, "request: stopped after 1 s"
        )
        assert 0.9 < time.perf_counter() - start < 1 + FAST_S
        # It stopped at its next step, the gate still shut: the solver is free.
        assert service.ended.get(timeout=10) == "_Stopped"
        assert post(url, "/api/v1/position", position_of(["DK"])).status == 200


def test_an_exchange_table_past_the_time_limit_stops_between_its_searches() -> None:
    class Watched(Service):
        def __init__(self) -> None:
            super().__init__(tt_mb=16)
            self.ended: queue.Queue[str] = queue.Queue()

        def exchange(
            self, request: Mapping[str, object], progress: Callable[[int, int], None] | None = None
        ) -> dict[str, object]:
            try:
                answer = super().exchange(request, progress)
            except Exception as error:
                self.ended.put(type(error).__name__)
                raise
            self.ended.put("finished")
            return answer

    service = Watched()
    # A second or more of searches; the limit is a tenth of that.
    with serving(service, time_limit_s=0.1) as url:
        answer = post(url, "/api/v1/exchange", {"deal": example("dealt.json")})
        assert_one_line(answer, 504, "request: stopped after 0.1 s")
        assert service.ended.get(timeout=30) == "_Stopped"


@pytest.mark.parametrize("method", ["review", "exchange"])
def test_a_long_answer_stops_when_its_progress_raises(method: str) -> None:
    class Enough(Exception):
        pass

    calls: list[tuple[int, int]] = []

    def progress(done: int, total: int) -> None:
        calls.append((done, total))
        if len(calls) == 2:
            raise Enough

    name = {"review": "played-out.json", "exchange": "dealt.json"}[method]
    with pytest.raises(Enough):
        getattr(Service(tt_mb=16), method)({"deal": example(name)}, progress)
    assert len(calls) == 2 and calls[0][0] < calls[1][0] < calls[1][1]


def test_a_newer_click_of_the_same_page_drops_a_waiting_one() -> None:
    service = Gated()
    with serving(service) as url, ThreadPoolExecutor(6) as pool:
        held = pool.submit(post, url, "/api/v1/review", {"deal": example("played.json")})
        assert service.started.wait(30)
        page = {"X-Kosolve-Client": "page-1"}
        clicks = [pool.submit(post, url, "/api/v1/position", position_of(play), page) for play in ([], ["DK"])]
        others = [
            pool.submit(post, url, "/api/v1/position", position_of([]), {"X-Kosolve-Client": "page-2"}),
            pool.submit(post, url, "/api/v1/position", position_of([])),
        ]
        dropped = first_done(clicks + others).result()
        assert_one_line(dropped, 409, "request: superseded by a newer position request of the same page")
        service.gate.set()
        assert held.result().status == 200
        assert sorted(click.result().status for click in clicks) == [200, 409]
        assert [other.result().status for other in others] == [200, 200]


# ---- connections ------------------------------------------------------------------


@pytest.mark.parametrize(
    "sent",
    fast_first(
        [
            b"GET /api/v1 HTTP/1.1\r\nHost: {host}\r\n\r\nGET /api/v1 HTTP/1.1\r\nHost: {host}\r\n",
            b"",
            b"GET / HTTP/1.1\r\n",
            b"GET /api/v1 HTTP/1.1\r\nHost: 127.0.0.1",
        ]
    ),
)
def test_a_connection_without_a_whole_request_head_is_closed(sent: bytes) -> None:
    with serving(Service(tt_mb=4), head_timeout_s=1) as url:
        host = url.removeprefix("http://").rstrip("/").encode()
        connections = [socket.create_connection(address(url), timeout=10) for _ in range(20)]
        try:
            start = time.perf_counter()
            for sock in connections:
                sock.sendall(sent.replace(b"{host}", host))
            for sock in connections:
                # The server closes it: the answer to a whole request, if any, then nothing.
                received = b"".join(iter(functools.partial(sock.recv, 65536), b""))
                assert received.count(b"HTTP/1.1 200 OK") == sent.count(b"\r\n\r\n")
            assert time.perf_counter() - start < 1 + FAST_S
        finally:
            for sock in connections:
                sock.close()


def test_a_head_sent_a_byte_at_a_time_is_cut_off() -> None:
    with serving(Service(tt_mb=4), head_timeout_s=1) as url, socket.create_connection(address(url), timeout=10) as sock:
        start = time.perf_counter()
        with pytest.raises(OSError):
            for byte in b"GET /api/v1 HTTP/1.1\r\nX-Slow: " + b"x" * 200:
                sock.sendall(bytes([byte]))
                time.sleep(0.05)
        assert time.perf_counter() - start < 1 + FAST_S


# ---- kosolve serve ----------------------------------------------------------------


def serve_notes(host: str) -> list[str]:
    """What ``kosolve serve --host host`` writes on stderr before serving."""
    command = [sys.executable, "-m", "kosolve.cli", "serve", "--no-browser", "--tt-mb", "4", "--host", host]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert server.stderr is not None
        lines = []
        for line in server.stderr:
            lines.append(line.rstrip("\n"))
            if "Ctrl-C stops it" in line:
                return lines
        pytest.fail(f"kosolve serve --host {host} ended: {lines}")
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_serve_warns_when_it_listens_beyond_this_machine() -> None:
    notes = serve_notes("0.0.0.0")
    assert notes[0].startswith("kosolve serve: warning: 0.0.0.0 is not a loopback address: anyone")
    assert len(notes) == 2
    assert serve_notes("localhost") == ["kosolve serves the page there; Ctrl-C stops it"]
