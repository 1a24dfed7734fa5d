"""Similarity across an assignment: one report over all its problems, most alike first, for the
course's instructors only, each pair one that opens side by side."""

from __future__ import annotations

from fastapi.testclient import TestClient

from service.db.models import Role
from tests.unit.service.helpers import error
from tests.unit.service.test_assignment_credit import Class, unique
from tests.utils.courses import API, join, new_user, send
from tests.utils.service import REFERENCE, bearer

# Accepted, and unlike the reference line for line: its own names and layout.
OWN_WAY = '''TABLE = [("a", "zq-secret-101"), ("b", "zq-secret-102"), ("hidden-key-c", "zq-secret-203"),
         ("hidden-key-d", "zq-secret-204"), ("hidden-key-e", "zq-secret-205")]


def lookup(key):
    for name, secret in TABLE:
        if name == key:
            return secret
    raise KeyError(key)
'''


def test_one_report_over_the_assignment_most_alike_first(client: TestClient) -> None:
    room = Class(client)
    cara = new_user(unique("credit-cara"))
    assert join(client, cara, room.course["join_code"]).status_code == 200
    week = room.assignment()
    sent = {name: send(client, token, REFERENCE, week["id"]).json() for name, token in room.tokens.items()}
    assert all(s["assignment"] == week["id"] for s in sent.values())
    hers = send(client, cara, OWN_WAY, week["id"]).json()
    assert client.get(f"{API}/submissions/{hers['id']}", headers=bearer(cara)).json()["verdict"] == "accepted"

    report = client.get(f"{API}/assignments/{week['id']}/similarity", headers=bearer(room.teacher))
    assert report.status_code == 200, report.text
    body = report.json()
    assert (body["assignment"], body["threshold"], body["compared"], body["messages"]) == (week["id"], 0.6, 3, [])
    [pair] = body["pairs"]  # ann and bob sent the same code; cara's is her own
    assert pair["problem"] == "secret_lookup" and pair["similarity"] == 1.0 and pair["matches"]
    assert {pair["a"]["user"], pair["b"]["user"]} == set(room.names.values())
    side = client.get(f"{API}/similarity/{pair['a']['submission']}/{pair['b']['submission']}",
                      headers=bearer(room.teacher))
    assert side.status_code == 200 and side.json()["similarity"] == 1.0

    # A pair that shares nothing is never listed, whatever the threshold.
    for threshold in (0.0, 1.0):
        again = client.get(f"{API}/assignments/{week['id']}/similarity", params={"threshold": threshold},
                           headers=bearer(room.teacher)).json()["pairs"]
        assert [(p["a"]["submission"], p["b"]["submission"]) for p in again] == [
            (pair["a"]["submission"], pair["b"]["submission"])]

    # Learners and other instructors learn nothing, not even that it exists.
    error(client.get(f"{API}/assignments/{week['id']}/similarity", headers=bearer(room.tokens["ann"])), 403)
    stranger = new_user(unique("credit-stranger-teacher"), Role.INSTRUCTOR)
    error(client.get(f"{API}/assignments/{week['id']}/similarity", headers=bearer(stranger)), 404)
    error(client.get(f"{API}/assignments/{week['id']}/similarity", params={"threshold": 2},
                     headers=bearer(room.teacher)), 422)
