"""The web application over real HTTP on a free port of 127.0.0.1: the
API's answers are the service's, the page and its files are served, and
every bad request gets a 4xx with a one-line JSON reason.  Skipped without
the extra ``kosolve[web]``."""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from support import EXAMPLES, example

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from kosolve.web.api import MAX_REQUEST_BYTES, Service
from kosolve.web.app import serving

FILES = ("played.json", "dealt-open.json")


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with serving(Service(tt_mb=16), [(name, example(name)) for name in FILES]) as address:
        yield address


def call(url: str, path: str, body: bytes | None = None, method: str | None = None) -> tuple[int, str, bytes]:
    """Status, content type and body of one request."""
    request = urllib.request.Request(url + path, data=body, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.headers["content-type"], response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["content-type"], error.read()


def post(url: str, path: str, data: object) -> tuple[int, dict[str, Any]]:
    status, kind, body = call(url, path, json.dumps(data).encode())
    assert kind == "application/json"
    answer: dict[str, Any] = json.loads(body)
    return status, answer


def test_the_api_answers_what_the_service_answers(url: str) -> None:
    status, answer = post(url, "api/v1/position", {"deal": example("played.json"), "play": ["DK", "D2"]})
    assert status == 200
    expected: dict[str, Any] = Service(tt_mb=16).position({"deal": example("played.json"), "play": ["DK", "D2"]})
    assert answer["view"] == expected["view"]
    assert {k: v for k, v in answer["report"].items() if k != "stats"} == {
        k: v for k, v in expected["report"].items() if k != "stats"
    }


def test_the_other_endpoints_answer(url: str) -> None:
    status, review = post(url, "api/v1/review", {"deal": example("played.json")})
    assert status == 200 and len(review["report"]["postmortem"]) == 7
    status, dealt = post(url, "api/v1/random", {"seed": 5})
    assert status == 200 and dealt["seed"] == 5 and "dealt" in dealt["deal"]
    status, listed = call(url, "api/v1/files")[0], json.loads(call(url, "api/v1/files")[2])
    assert status == 200 and [f["name"] for f in listed["files"]] == list(FILES)
    assert listed["files"][0]["deal"] == example("played.json")
    assert json.loads(call(url, "api/v1")[2])["api"] == 1


def test_the_page_and_its_files_are_served(url: str) -> None:
    status, kind, body = call(url, "")
    assert status == 200 and kind.startswith("text/html") and b'src="static/app.js"' in body
    for name, kind_start in (("app.js", "text/javascript"), ("app.css", "text/css")):
        status, kind, _ = call(url, f"static/{name}")
        assert status == 200 and kind.startswith(kind_start)


@pytest.mark.parametrize(
    ("path", "body", "method", "status", "message"),
    [
        ("api/v1/position", b"{", None, 400, "request: line 1, column 2: broken JSON"),
        ("api/v1/position", b"{}", None, 400, "request: deal: required key missing"),
        ("api/v1/position", b'{"deal": {"version": 1}}', None, 400, "deal: contract: required key missing"),
        (
            "api/v1/exchange",
            json.dumps({"deal": example("played.json")}).encode(),
            None,
            400,
            "deal: not a deal as",
        ),
        ("api/v1/position", None, "GET", 405, "/api/v1/position: method GET not allowed"),
        ("api/v1/solve", b"{}", None, 404, "/api/v1/solve: no such page"),
        ("static/nothing.js", None, None, 404, "/static/nothing.js: no such page"),
    ],
)
def test_a_bad_request_gets_a_one_line_reason(
    url: str, path: str, body: bytes | None, method: str | None, status: int, message: str
) -> None:
    got, kind, text = call(url, path, body, method)
    assert (got, kind) == (status, "application/json")
    error = json.loads(text)["error"]
    assert error.startswith(message) and "\n" not in error


def test_kosolve_serve_prints_its_url_and_serves_the_files() -> None:
    command = [
        sys.executable,
        "-m",
        "kosolve.cli",
        "serve",
        "--no-browser",
        "--tt-mb",
        "4",
        str(EXAMPLES / "ending.json"),
    ]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        url = server.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:") and url.endswith("/")
        for _ in range(100):
            try:
                listed = json.loads(call(url, "api/v1/files")[2])
                break
            except urllib.error.URLError:
                time.sleep(0.05)
        else:
            pytest.fail(f"kosolve serve does not answer at {url}")
        assert [Path(f["name"]).name for f in listed["files"]] == ["ending.json"]
        status, answer = post(url, "api/v1/position", {"deal": listed["files"][0]["deal"]})
        assert status == 200 and answer["report"]["value"]["thirds"] == 111
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_a_request_too_large_is_refused_before_it_is_read(url: str) -> None:
    # Only the headers are sent: the answer must come from the declared size
    # alone (a client still sending a megabyte might see the connection reset).
    host, port = url.removeprefix("http://").rstrip("/").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=60)
    try:
        connection.putrequest("POST", "/api/v1/random")
        connection.putheader("Content-Type", "application/json")
        connection.putheader("Content-Length", str(MAX_REQUEST_BYTES + 1))
        connection.endheaders()
        response = connection.getresponse()
        assert (response.status, response.getheader("content-type")) == (413, "application/json")
        assert json.loads(response.read())["error"] == "request: more than 1 MB, too large"
    finally:
        connection.close()


class _Failing(Service):
    def position(self, request: Mapping[str, object]) -> dict[str, object]:
        raise RuntimeError("the table\nbroke")


def test_an_internal_failure_is_one_line_too() -> None:
    with serving(_Failing(tt_mb=4)) as address:
        status, kind, body = call(address, "api/v1/position", b"{}")
    assert (status, kind) == (500, "application/json")
    assert json.loads(body)["error"] == "internal error: RuntimeError: the table broke"
