"""Request bodies that ``kosolve serve`` does not wait for: a body that has
not arrived whole within its time limit after the head is answered 408 and
its connection closed, and the bodies being received at once are bounded
in bytes across connections (503 past it).  Raw sockets on the loopback;
skipped without the extra ``kosolve[web]``."""

from __future__ import annotations

import functools
import http.client
import json
import socket
import time
from collections.abc import Iterator

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from kosolve.web.api import Service
from kosolve.web.app import serving

LIMIT_S = 1.0
"""The body's time limit of these tests' servers."""
SLACK_S = 2.0
"""How much later than the limit a loaded machine with two cores may close."""


def address(url: str) -> tuple[str, int]:
    host, port = url.removeprefix("http://").rstrip("/").rsplit(":", 1)
    return host, int(port)


def received(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    return b"".join(iter(functools.partial(sock.recv, 65536), b""))


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with serving(Service(tt_mb=4), body_timeout_s=LIMIT_S) as served:
        yield served


def head(url: str, method: str, path: str, length: int) -> bytes:
    host = url.removeprefix("http://").rstrip("/")
    return (
        f"{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {length}\r\n\r\n"
    ).encode()


def test_a_body_that_does_not_arrive_is_answered_408(url: str) -> None:
    with socket.create_connection(address(url), timeout=LIMIT_S + SLACK_S + 5) as sock:
        start = time.perf_counter()
        sock.sendall(head(url, "POST", "/api/v1/random", 10) + b'{"se')
        answer = received(sock)
        assert time.perf_counter() - start < LIMIT_S + SLACK_S
    status, _, rest = answer.partition(b"\r\n")
    assert status == b"HTTP/1.1 408 Request Timeout"
    error = json.loads(rest.partition(b"\r\n\r\n")[2])["error"]
    assert error == f"request: the body did not arrive within {LIMIT_S:g} s"


def test_a_body_the_answer_does_not_wait_for_is_cut_off_all_the_same(url: str) -> None:
    with socket.create_connection(address(url), timeout=LIMIT_S + SLACK_S + 5) as sock:
        start = time.perf_counter()
        sock.sendall(head(url, "GET", "/api/v1", 10) + b"1234")
        answer = received(sock)
        assert time.perf_counter() - start < LIMIT_S + SLACK_S
    assert answer.startswith(b"HTTP/1.1 200 OK") and answer.count(b"HTTP/1.1") == 1


def test_a_body_sent_a_byte_at_a_time_is_cut_off(url: str) -> None:
    with socket.create_connection(address(url), timeout=10) as sock:
        sock.sendall(head(url, "POST", "/api/v1/random", 400))
        start = time.perf_counter()
        with pytest.raises(OSError):
            for _ in range(400):
                sock.sendall(b" ")
                time.sleep(0.05)
        assert time.perf_counter() - start < LIMIT_S + SLACK_S


def post(url: str, body: bytes) -> int:
    connection = http.client.HTTPConnection(*address(url), timeout=30)
    try:
        connection.request("POST", "/api/v1/notation", body, {"Content-Type": "application/json"})
        return connection.getresponse().status
    finally:
        connection.close()


def test_the_bodies_received_at_once_are_bounded() -> None:
    budget = 1 << 20
    body = b'{"text": "' + b"x" * (budget * 6 // 10) + b'"}'
    with serving(Service(tt_mb=4), body_timeout_s=30, body_budget=budget) as url:
        assert post(url, body) == 400  # alone it fits: a line that is no deal
        with socket.create_connection(address(url), timeout=10) as held:
            # Most of a body, which the server takes in and holds, waiting for the rest.
            held.sendall(head(url, "POST", "/api/v1/notation", len(body) + 10) + body)
            statuses = []
            for _ in range(50):
                statuses.append(post(url, body))
                if statuses[-1] == 503:
                    break
                time.sleep(0.1)
            assert statuses[-1] == 503, statuses
        # The connection closed, its bytes are free again.
        for _ in range(50):
            if post(url, body) == 400:
                break
            time.sleep(0.1)
        else:
            pytest.fail("the budget stayed spent")
