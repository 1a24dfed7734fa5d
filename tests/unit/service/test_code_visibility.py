"""Nobody reads another user's code through any route: every route of the OpenAPI document, with
every role and real ids filled in, answers only with code the one rule lets that caller read.

Each submission (tries and runs included) carries a marker of its own in its code, which its
solution also prints, so the marker shows wherever the code or its output goes. Who may read a
submission is written out here, independently of ``service.access``: its author, admins,
the owner of its problem, and an instructor of the course whose assignment it was handed in for
(mode submit: a try or a run sent for the assignment stays the learner's). A learner's submission
that names no assignment is handed in all the same when an assignment of their course holds the
problem and takes it now (here: the learner's every submit; ``service.assignment_credit``).
Everyone else must never meet its marker: not in a submission, a listing, a side-by-side view, a
similarity report, a gradebook, a chart or an error.

The cast: ``learner`` joined the course by its join link and sends work for its assignment (and
outside it); ``other_learner`` was named by the course's instructor (POST /courses/{id}/members)
and never accepted: their code is no course's; ``instructor`` owns one of the two problems;
``course_instructor`` teaches the course, whose assignment holds both problems; ``admin``.
"""

from __future__ import annotations

import itertools
import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from fastapi.testclient import TestClient

from service.db.models import Role
from tests.unit.service.helpers import publish, ratio_files
from tests.utils.accounts import make_account
from tests.utils.courses import API, assignment_body, invite, join, new_course
from tests.utils.service import bearer

ROLES = ["anonymous", "learner", "other_learner", "instructor", "course_instructor", "admin"]
SHIPPED = "secret_lookup"  # owned by nobody: only admins read all of its submissions
MARK = re.compile(r"codemark-[0-9a-f]{16}")


def lookup_code(mark: str) -> str:
    return (f"# {mark}\nSECRETS = {{'a': 'zq-secret-101', 'b': 'zq-secret-102', 'hidden-key-c': "
            "'zq-secret-203', 'hidden-key-d': 'zq-secret-204', 'hidden-key-e': 'zq-secret-205'}\n"
            f"def lookup(key):\n    print({mark!r})\n    return SECRETS[key]\n")


def ratio_code(mark: str) -> str:
    return f"# {mark}\ndef ratio(hits, total):\n    print({mark!r})\n    return hits / total\n"


@dataclass(frozen=True)
class Sent:
    """One planted submission and who may read it (by the rule as this test states it)."""

    id: int
    mark: str
    author: str
    problem: str
    mode: str
    for_assignment: bool

    def readers(self, owned_problem: str) -> set[str]:
        who = {self.author, "admin"}
        if self.problem == owned_problem:
            who.add("instructor")
        # Handed in: sent for the assignment, or by the course's learner while the (open)
        # assignment holds both problems; a try or a run never is.
        if self.mode == "submit" and (self.for_assignment or self.author == "learner"):
            who.add("course_instructor")
        return who


@dataclass
class World:
    tokens: dict[str, str]
    user_ids: dict[str, int]
    owned: str  # the instructor's problem
    versions: dict[str, str]  # slug -> its published version
    course: int
    assignment: int
    invitation: int  # other_learner's, pending
    spare_token: int  # the id of a token nobody in the cast owns
    join_code: str  # the course's
    sent: list[Sent] = field(default_factory=list)

    def allowed(self, role: str) -> set[str]:
        return {s.mark for s in self.sent if role in s.readers(self.owned)}

    def owner_of(self, mark: str) -> Sent:
        return next(s for s in self.sent if s.mark == mark)


def _ok(response: Any, status: int) -> Any:
    assert response.status_code == status, response.text
    return response.json() if response.content else None


@pytest.fixture(scope="module")
def world(client: TestClient) -> World:
    accounts = {role: make_account({"instructor": Role.INSTRUCTOR, "course_instructor": Role.INSTRUCTOR,
                                    "admin": Role.ADMIN}.get(role, Role.LEARNER), prefix=f"vis-{role}")
                for role in ROLES if role != "anonymous"}
    tokens = {role: account.token for role, account in accounts.items()}
    owned = _owned_problem(client, tokens["instructor"])
    versions = {slug: _ok(client.get(f"{API}/problems/{slug}", headers=bearer(tokens["admin"])), 200)
                ["version"] for slug in (SHIPPED, owned)}
    teacher = tokens["course_instructor"]
    course = new_course(client, teacher, "Visibility")
    assignment = _ok(client.post(f"{API}/courses/{course['id']}/assignments", headers=bearer(teacher),
                                 json=assignment_body([SHIPPED, owned])), 201)["id"]
    assert join(client, tokens["learner"], course["join_code"]).status_code == 200
    # The attack of the issue: naming someone who never agreed.
    _ok(invite(client, teacher, course["id"], accounts["other_learner"].name, "learner"), 202)
    invitation = _ok(client.get(f"{API}/me/invitations", headers=bearer(tokens["other_learner"])), 200)[0]["id"]
    spare = make_account(prefix="vis-spare")
    spare_token = _ok(client.get(f"{API}/me/tokens", headers=bearer(spare.token)), 200)[0]["id"]
    made = World(tokens, {role: a.id for role, a in accounts.items()}, owned, versions, course["id"],
                 assignment, invitation, spare_token, course["join_code"])

    plan = [  # (author, problem, mode, for the assignment)
        ("learner", SHIPPED, "submit", True), ("learner", SHIPPED, "try", True),
        ("learner", SHIPPED, "run", True), ("learner", owned, "submit", True),
        ("learner", SHIPPED, "submit", False), ("learner", owned, "try", False),
        ("other_learner", SHIPPED, "submit", False), ("other_learner", SHIPPED, "try", False),
        ("other_learner", owned, "submit", False),
        ("instructor", owned, "submit", False), ("instructor", SHIPPED, "try", False),
        ("course_instructor", SHIPPED, "submit", False), ("admin", SHIPPED, "submit", False),
    ]
    for author, problem, mode, for_assignment in plan:
        mark = f"codemark-{uuid.uuid4().hex[:16]}"
        body: dict[str, Any] = {"problem": problem, "mode": mode,
                                "code": lookup_code(mark) if problem == SHIPPED else ratio_code(mark)}
        if mode == "try":
            body["arguments"] = ["a"] if problem == SHIPPED else [1, 2]
        if for_assignment:
            body["assignment"] = assignment
        sent = _ok(client.post(f"{API}/submissions", headers=bearer(tokens[author]), json=body), 202)
        done = _ok(client.get(f"{API}/submissions/{sent['id']}", headers=bearer(tokens[author])), 200)
        assert done["status"] == "done", done  # judged eagerly by the unit layer's double
        made.sent.append(Sent(sent["id"], mark, author, problem, mode, for_assignment))
    return made


def _owned_problem(client: TestClient, token: str) -> str:
    slug = f"vis_{uuid.uuid4().hex[:8]}"
    return publish(client, token, slug, ratio_files(slug))


# ---------------------------------------------------------------------------------------------
# Every route, with the ids of the world


def _path_values(world: World, name: str) -> list[str]:
    ids = [str(s.id) for s in world.sent]
    values = {
        "submission_id": ids, "slug": [SHIPPED, world.owned], "version": sorted(world.versions.values()),
        "course_id": [str(world.course)], "assignment_id": [str(world.assignment)],
        "user_id": [str(world.user_ids["other_learner"])], "invitation_id": [str(world.invitation)],
        "token_id": [str(world.spare_token)], "track": ["lookups"], "code": [world.join_code],
        "comment_id": ["1"],  # comments carry no code; the id makes the route walked all the same
        "request_id": ["1"],  # nor do regrade requests
        "platform_id": ["1"], "token": ["no-such-request"],  # LTI's platforms and deep links: no code
    }
    if name not in values:
        pytest.fail(f"this test does not know which real ids to put in {{{name}}}: add them to "
                    "_path_values so that the route is walked too")
    return values[name]


def _filled(world: World, path: str) -> Iterator[str]:
    """The path with every combination of real ids; {a}/{b} take every pair of submissions."""
    names = re.findall(r"\{([a-z_]+)\}", path)
    pools = [[str(s.id) for s in world.sent] if n in ("a", "b") else _path_values(world, n) for n in names]
    for combination in itertools.product(*pools):
        filled = path
        for name, value in zip(names, combination, strict=True):
            filled = filled.replace(f"{{{name}}}", value, 1)
        yield filled


def _queries(world: World, operation: dict[str, Any]) -> list[dict[str, Any]]:
    """No query, and every query parameter the route takes that names something of the world."""
    known: dict[str, list[Any]] = {"course": [world.course], "problem": [SHIPPED, world.owned],
                                   "threshold": [0.0], "limit": [100], "mine": ["true"],
                                   "version": sorted(world.versions.values())}
    names = [p["name"] for p in operation.get("parameters", []) if p["in"] == "query" and p["name"] in known]
    variants: list[dict[str, Any]] = [{}]
    for values in itertools.product(*(known[n] for n in names)):
        if names:
            variants.append(dict(zip(names, values, strict=True)))
    return variants


def _operations(client: TestClient) -> list[tuple[str, str, dict[str, Any]]]:
    paths: dict[str, dict[str, Any]] = client.app.openapi()["paths"]  # type: ignore[attr-defined]
    found = [(method.upper(), path, operation) for path, operations in paths.items()
             for method, operation in operations.items()]
    assert len(found) > 40, "the OpenAPI document lists the routes"
    # Reads first; then changes; deletions last, since they take ids away from the routes after them.
    order = {"GET": 0, "POST": 1, "PUT": 1, "PATCH": 1, "DELETE": 2}
    return sorted(found, key=lambda f: (order.get(f[0], 1), f[1]))


@dataclass
class Walk:
    seen: dict[str, set[str]] = field(default_factory=lambda: {role: set() for role in ROLES})
    leaks: list[str] = field(default_factory=list)
    requests: int = 0


def _walk(client: TestClient, world: World, methods: set[str]) -> Walk:
    walk = Walk()
    for method, path, operation in _operations(client):
        if method not in methods:
            continue
        for url in _filled(world, path):
            for query in _queries(world, operation) if method == "GET" else [{}]:
                for role in ROLES:
                    headers = bearer(world.tokens[role]) if role != "anonymous" else {}
                    body: dict[str, Any] | None = None if method in ("GET", "DELETE") else {}
                    response = client.request(method, url, headers=headers, params=query, json=body)
                    walk.requests += 1
                    allowed = world.allowed(role)
                    for mark in set(MARK.findall(response.text)):
                        walk.seen[role].add(mark)
                        if mark not in allowed:
                            owner = world.owner_of(mark)
                            walk.leaks.append(f"{role} read {owner.author}'s {owner.mode} of {owner.problem} "
                                              f"(submission {owner.id}) through {method} {url} {query}: "
                                              f"{response.status_code}")
    return walk


def test_no_read_shows_anyone_code_the_rule_keeps_from_them(client: TestClient, world: World,
                                                          refused_connections: list[str]) -> None:
    """Every GET of the API with every role: exactly the code each may read, and nothing else."""
    walk = _walk(client, world, {"GET"})
    assert not walk.leaks, f"{len(walk.leaks)} answers of {walk.requests} leaked code:\n" + "\n".join(walk.leaks[:40])
    for role in ROLES:  # the walk is not blind: each caller met all the code it may read
        assert walk.seen[role] == world.allowed(role), role
    # The course's instructor: three handed in for the assignment, one counted for it unnamed.
    assert world.allowed("anonymous") == set() and len(world.allowed("course_instructor")) == 4


def test_no_change_answers_with_anyone_code(client: TestClient, world: World,
                                            refused_connections: list[str]) -> None:
    """Every POST, PUT, PATCH and DELETE with every role and the world's ids (an empty body where
    one is taken): no answer carries code its caller may not read."""
    walk = _walk(client, world, {"POST", "PUT", "PATCH", "DELETE"})
    assert not walk.leaks, f"{len(walk.leaks)} answers of {walk.requests} leaked code:\n" + "\n".join(walk.leaks[:40])
    assert walk.requests > 100
