"""POST ?wait= and a batch against the real stack: HTTP, queue, worker, Docker sandbox."""

from __future__ import annotations

from tests.utils.service import REFERENCE, bearer, wait_done
from tests.utils.service_fixtures import Service

WRONG = "def lookup(key):\n    return 'zq-secret-1O1'\n"


def test_post_with_wait_answers_with_the_verdict(service: Service) -> None:
    response = service.client.post("/api/v1/submissions?wait=30", headers=bearer(service.learner),
                                   json={"problem": "secret_lookup", "code": REFERENCE, "mode": "run"})
    # A warm worker judges a run within the wait; a cold one may not: then it is 202 as before.
    assert response.status_code in (200, 202), response.text
    body = response.json()
    if response.status_code == 202:
        assert body["status"] != "done"
        body = wait_done(service.client, service.learner, body["id"])
    assert body["status"] == "done" and body["verdict"] == "accepted"
    assert int(response.headers["RateLimit-Limit"]) >= 1
    summary = service.client.get(f"/api/v1/submissions/{body['id']}", headers=bearer(service.learner),
                                 params={"view": "summary"}).json()
    assert summary == {"view": "summary", "id": body["id"], "status": "done", "verdict": "accepted",
                       "score": 1.0, "passed": 2, "total": 2, "held": False}


def test_a_batch_is_judged_item_by_item(service: Service) -> None:
    items = [{"problem": "secret_lookup", "code": REFERENCE, "mode": "run"},
             {"problem": "no_such_problem", "code": REFERENCE, "mode": "run"},
             {"problem": "secret_lookup", "code": WRONG, "mode": "run", "idempotency_key": "stack-batch"}]
    response = service.client.post("/api/v1/submissions/batch", headers=bearer(service.other_learner),
                                   json={"items": items})
    assert response.status_code == 200, response.text
    results = response.json()["results"]
    assert [r["status"] for r in results] == [202, 404, 202]
    assert results[1]["error"]["code"] == "not_found"
    ids = [results[0]["submission"]["id"], results[2]["submission"]["id"]]
    verdicts = [wait_done(service.client, service.other_learner, ident)["verdict"] for ident in ids]
    assert verdicts == ["accepted", "wrong_answer"]
    # Both read back in one request; the keyed item is the same row when sent again.
    many = service.client.get("/api/v1/submissions", headers=bearer(service.other_learner),
                              params={"ids": ",".join(map(str, ids))}).json()
    assert [item["id"] for item in many["items"]] == ids
    again = service.client.post("/api/v1/submissions/batch", headers=bearer(service.other_learner),
                                json={"items": items[2:]}).json()["results"]
    assert again[0]["submission"]["id"] == ids[1]
