"""Small helpers for the unit layer's HTTP tests."""

from __future__ import annotations

import json
from typing import Any

import httpx
from fastapi.testclient import TestClient

from tests.utils.service import bearer

SUBMISSIONS = "/api/v1/submissions"
WRONG = "def lookup(key):\n    return 'zq-secret-1O1'\n"  # a letter O for a zero: wrong everywhere


def error(response: httpx.Response, status: int, code: str | None = None) -> str:
    """Assert the status and the JSON error shape {"error": {"code", "message", "param",
    "request_id"}}; the message."""
    assert response.status_code == status, f"{response.status_code} {response.text[:500]}"
    assert response.headers["content-type"].startswith("application/json"), response.headers
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "param", "request_id"}, body
    # Every error names the request id, as the response header does.
    assert body["error"]["request_id"] == response.headers["x-request-id"], body
    assert body["error"]["param"] is None or isinstance(body["error"]["param"], str), body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    if code is not None:
        assert body["error"]["code"] == code, body
    return str(body["error"]["message"])


def post_json(client: TestClient, token: str, body: object, raw: bool = False,
              **headers: str) -> httpx.Response:
    content = body if raw else json.dumps(body)
    return client.post(SUBMISSIONS, headers={**bearer(token), "Content-Type": "application/json", **headers},
                       content=content)  # type: ignore[arg-type]


def read(client: TestClient, token: str, submission_id: int, **params: Any) -> httpx.Response:
    return client.get(f"{SUBMISSIONS}/{submission_id}", headers=bearer(token), params=params)


RATIO_TOML = """slug = "{slug}"
title = "Fast: a ratio"
difficulty = "easy"
tags = ["fixture"]

[function]
name = "ratio"
returns = "float"

[[function.parameters]]
name = "hits"
type = "int"

[[function.parameters]]
name = "total"
type = "int"

[limits]
time_per_test = 1.0
time_per_submission = 30.0
memory_mb = 128

[checker]
name = "float"
"""
RATIO = "def ratio(hits, total):\n    return hits / total\n"  # rejects total = 0: it raises
HINTS = ("## Start\n\nDivide $h$ by $t$.\n\n## Types\n\nReturn a `float`.\n\n"
         "## Zero\n\nThe problem never asks for $t = 0$.\n")
EDITORIAL = "# Idea\n\nThe ratio is $\\frac{h}{t}$; one division.\n"


def ratio_files(slug: str, **extra: str) -> dict[str, str]:
    """A small problem with hints and an editorial, as an upload."""
    files = {
        "problem.toml": RATIO_TOML.format(slug=slug),
        "statement.md": "Return `hits / total`.\n",
        "starter.py": "def ratio(hits, total):\n    ...\n",
        "reference.py": RATIO,
        "tests/public.json": json.dumps([{"name": "half", "args": [1, 2], "expected": 0.5}]),
        "tests/hidden.json": json.dumps([{"name": "third", "args": [1, 3], "expected": 1 / 3}]),
        "wrong/zero.py": "# verdict: wrong_answer\ndef ratio(hits, total):\n    return 0.0\n",
        "hints.md": HINTS,
        "editorial.md": EDITORIAL,
    }
    files.update(extra)
    return files


def publish(client: TestClient, token: str, slug: str, files: dict[str, str]) -> str:
    """Upload a problem (validated eagerly in the exec double) and publish it; its slug."""
    created = client.post("/api/v1/problems", headers=bearer(token), json={"slug": slug, "files": files})
    assert created.status_code == 201, created.text
    published = client.post(f"/api/v1/problems/{slug}/publish", headers=bearer(token), json={})
    assert published.status_code == 200, published.text
    return slug
