from __future__ import annotations

from fastapi.testclient import TestClient

from tests.utils.service import REFERENCE, bearer, submit
from tests.utils.service_fixtures import Tokens


def test_same_key_and_body_returns_the_same_submission(client: TestClient, tokens: Tokens) -> None:
    first = submit(client, tokens.learner, REFERENCE, mode="run", **{"Idempotency-Key": "k-1"})
    again = submit(client, tokens.learner, REFERENCE, mode="run", **{"Idempotency-Key": "k-1"})
    assert again["id"] == first["id"]
    listed = client.get("/api/v1/submissions?limit=100", headers=bearer(tokens.learner)).json()
    assert [s["id"] for s in listed["items"]].count(first["id"]) == 1


def test_same_key_with_another_body_is_409(client: TestClient, tokens: Tokens) -> None:
    submit(client, tokens.learner, REFERENCE, mode="run", **{"Idempotency-Key": "k-2"})
    response = client.post("/api/v1/submissions", headers={**bearer(tokens.learner), "Idempotency-Key": "k-2"},
                           json={"problem": "secret_lookup", "code": REFERENCE, "mode": "submit"})
    assert response.status_code == 409 and response.json()["error"]["code"] == "conflict"


def test_keys_belong_to_one_user(client: TestClient, tokens: Tokens) -> None:
    mine = submit(client, tokens.learner, REFERENCE, mode="run", **{"Idempotency-Key": "shared"})
    theirs = submit(client, tokens.other_learner, REFERENCE, mode="run", **{"Idempotency-Key": "shared"})
    assert mine["id"] != theirs["id"]
