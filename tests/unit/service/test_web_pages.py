"""The page routes and their error pages: browsers asking for a page get HTML, everyone else JSON."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from api.html_errors import HtmlErrors
from api.request_ids import RequestIds
from api.routes.web import WEB
from tests.unit.service.helpers import error
from tests.utils.service import bearer
from tests.utils.service_fixtures import Tokens

BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


def _strict_page(response: httpx.Response) -> None:
    headers = response.headers
    assert headers["content-type"].startswith("text/html"), headers
    policy = headers["content-security-policy"]
    assert "script-src 'self'" in policy and "style-src 'self'" in policy and "unsafe-inline" not in policy
    assert headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize("path", ["/problems/secret_lookup/history", "/problems/anything/history"])
def test_the_history_page_is_the_shell(client: TestClient, path: str) -> None:
    response = client.get(path, headers=BROWSER)
    assert response.status_code == 200
    _strict_page(response)
    assert response.text == client.get("/").text  # the script fetches the submissions itself


@pytest.mark.parametrize("path", ["/no/such/page", "/problems", "/problems/a/b/c", "/submissions/latest",
                                  "/static/missing.js"])
def test_an_unknown_page_is_an_html_404_for_a_browser(client: TestClient, path: str) -> None:
    response = client.get(path, headers=BROWSER)
    assert response.status_code in (404, 422)
    _strict_page(response)
    assert "<h1>Page not found</h1>" in response.text
    assert '<a href="/">Go to the problem list</a>' in response.text
    assert "<script" not in response.text and " style=" not in response.text
    assert '"error"' not in response.text and response.headers["x-request-id"]


@pytest.mark.parametrize("accept", ["*/*", "application/json", ""])
def test_an_unknown_page_stays_json_for_other_clients(client: TestClient, accept: str) -> None:
    headers = {"Accept": accept} if accept else {}
    assert "Not Found" in error(client.get("/no/such/page", headers=headers), 404, "not_found")


@pytest.mark.parametrize("path", ["/api/v1/nothing-here", "/api/v1/problems/no_such_problem",
                                  "/api/v1/submissions/999999"])
def test_the_api_answers_json_even_to_a_browser(client: TestClient, tokens: Tokens, path: str) -> None:
    response = client.get(path, headers={**BROWSER, **bearer(tokens.learner)})
    error(response, 404, "not_found")


def test_the_api_without_a_token_is_json_for_a_browser(client: TestClient) -> None:
    error(client.get("/api/v1/problems", headers=BROWSER), 401, "unauthorized")


def test_an_error_page_escapes_what_it_shows(client: TestClient) -> None:
    response = client.get("/<script>alert(1)</script>", headers=BROWSER)
    assert response.status_code == 404
    assert "<script>" not in response.text


def test_a_server_failure_on_a_page_is_an_html_500_naming_the_request() -> None:
    inner = FastAPI()

    @inner.get("/boom")
    def boom() -> None:
        raise RuntimeError("a bug")

    inner.add_middleware(RequestIds)  # in the order api.main adds them
    inner.add_middleware(HtmlErrors)
    with TestClient(inner, raise_server_exceptions=False) as client:
        page = client.get("/boom", headers={**BROWSER, "X-Request-ID": "req-42"})
        assert page.status_code == 500
        _strict_page(page)
        assert "Something went wrong" in page.text and "req-42" in page.text
        assert "a bug" not in page.text  # the cause stays in the server's log
        assert client.get("/boom").json()["error"]["code"] == "internal"


def test_a_page_that_is_not_an_error_passes_untouched(client: TestClient) -> None:
    response = client.get("/static/app.css", headers=BROWSER)
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/css")
    assert client.get("/healthz", headers=BROWSER).headers["content-type"].startswith("application/json")


DIFF_CASES = [
    ("x\ny\nz", "x\nz\nw"),
    ("def f(a):\n    return a\n", "def f(a):\n    b = a\n    return b\n"),
    ("same\ntext", "same\ntext"),
    ("", "one line"),
    ("a\nb\nc\nd\ne", "e\nd\nc\nb\na"),
]


@pytest.mark.skipif(shutil.which("node") is None, reason="no Node.js to run the page's diff with")
def test_the_history_diff_is_a_longest_common_subsequence_of_lines(tmp_path: Path) -> None:
    (tmp_path / "diff.mjs").write_text((WEB / "static" / "js" / "submissions" / "diff.js").read_text())
    (tmp_path / "run.mjs").write_text(
        'import { lineDiff } from "./diff.mjs";\n'
        "const cases = JSON.parse(process.argv[2]);\n"
        "console.log(JSON.stringify(cases.map(([a, b]) => lineDiff(a, b))));\n")
    ran = subprocess.run(["node", "run.mjs", json.dumps(DIFF_CASES)], cwd=tmp_path, capture_output=True,
                         text=True, timeout=30)
    assert ran.returncode == 0, ran.stderr
    diffs = json.loads(ran.stdout)
    for (before, after), ops in zip(DIFF_CASES, diffs, strict=True):
        old = before.split("\n")
        new = after.split("\n")
        # Read one way the diff gives back the old text, read the other way the new one, with
        # each line's number in its own text.
        assert [o["text"] for o in ops if o["kind"] != "added"] == old
        assert [o["text"] for o in ops if o["kind"] != "removed"] == new
        assert all(old[o["old"] - 1] == o["text"] for o in ops if o["old"])
        assert all(new[o["new"] - 1] == o["text"] for o in ops if o["new"])
        kept = sum(o["kind"] == "same" for o in ops)
        assert kept == _lcs(old, new), (before, after, ops)
    assert [o["kind"] for o in diffs[0]] == ["same", "removed", "same", "added"]


def _lcs(a: list[str], b: list[str]) -> int:
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            table[i + 1][j + 1] = table[i][j] + 1 if x == y else max(table[i][j + 1], table[i + 1][j])
    return table[len(a)][len(b)]
