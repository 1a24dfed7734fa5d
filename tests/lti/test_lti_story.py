"""LTI 1.3 end to end against a real platform (tests/lti/platform.py: its own RSA keys, JWKS,
token endpoint, AGS and NRPS), without a browser: an admin registers the judge dynamically; an
instructor launches a deep-linking request and places two problems; a learner launches each,
hands in work, and the scores arrive at the platform's line items, sent by the webhook worker;
the roster comes in page by page; the judge rotates its keys and deep linking still verifies."""

from __future__ import annotations

import subprocess
import time
import uuid
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import httpx

from service.db.models import LtiGradeSync, Role
from service.db.session import session_scope
from service.lti import keys
from service.users import create_user
from tests.lti.conftest import API, INSTRUCTOR, LEARNER, LmsBrowser, new_admin
from tests.lti.platform import Platform, auto_post_form
from tests.utils.service import bearer
from tests.utils.service_fixtures import problem_files

RIGHT = ("SECRETS = {'a': 'zq-secret-101', 'b': 'zq-secret-102', 'hidden-key-c': 'zq-secret-203',\n"
         "           'hidden-key-d': 'zq-secret-204', 'hidden-key-e': 'zq-secret-205'}\n\n"
         "def lookup(key):\n    return SECRETS[key]\n")
WRONG = "def lookup(key):\n    return 'nope'\n"


def register_dynamically(judge: str, lms: Platform, admin: str) -> dict[str, Any]:
    """What the registration page does: the preview, then the registration with the token."""
    query = dict(parse_qsl(urlsplit(lms.registration_start_url(f"{judge}/lti/register")).query))
    with httpx.Client(base_url=f"{judge}{API}", headers=bearer(admin), timeout=30) as http:
        preview = http.post("/lti/registrations", json={"openid_configuration": query["openid_configuration"]})
        assert preview.status_code == 200, preview.text
        assert preview.json()["issuer"] == lms.issuer
        assert "LtiDeepLinkingRequest" in preview.json()["messages"]
        made = http.post("/lti/registrations", json=query)
        assert made.status_code == 200, made.text
        platform: dict[str, Any] = made.json()
    tool = lms.tool
    assert tool is not None and platform["client_id"] == tool.client_id
    assert platform["deployment_ids"] == [tool.deployment_id]
    return platform


def publish_copy(judge: str, slug: str) -> None:
    with session_scope() as session:
        author = create_user(session, f"lti-author-{uuid.uuid4().hex[:8]}", Role.INSTRUCTOR)[1]
    with httpx.Client(base_url=f"{judge}{API}", headers=bearer(author), timeout=60) as http:
        files = problem_files(slug)
        files["problem.toml"] = files["problem.toml"].replace('title = "', 'title = "Second: ', 1)
        assert http.post("/problems", json={"slug": slug, "files": files}).status_code == 201
        deadline = time.monotonic() + 120
        while (newest := http.get(f"/problems/{slug}/versions").json()[-1])["status"] == "draft":
            assert time.monotonic() < deadline, "validation did not finish"
            time.sleep(0.3)
        assert newest["status"] == "valid", newest
        assert http.post(f"/problems/{slug}/publish", json={}).status_code == 200


def deep_link(judge: str, lms: Platform, teacher: LmsBrowser, slugs: list[str]) -> list[str]:
    """The instructor's deep-linking launch, their picks, and the answer posted to the LMS; the
    ids of the links the LMS made."""
    before = set(lms.links)
    landed = teacher.launch(lms.deep_link_start_url("tess"))
    assert landed.status_code == 303, landed.text
    page = landed.headers["location"]
    assert page.startswith("/lti/deep-link/"), page
    token = page.rsplit("/", 1)[1]
    offered = teacher.api("GET", f"/lti/deep-links/{token}")
    assert offered.status_code == 200, offered.text
    assert set(slugs) <= {p["key"] for p in offered.json()["problems"]}
    csrf = teacher.request("GET", f"{judge}{API}/auth/session").json()["csrf_token"]
    answer = teacher.request("POST", f"{judge}/lti/deep-link/{token}",
                             data={"csrf_token": csrf, "problem": slugs})
    assert answer.status_code == 200, answer.text
    action, fields = auto_post_form(answer.text)
    assert action == lms.deep_link_return_url and set(fields) == {"JWT"}
    returned = teacher.request("POST", action, data=fields)
    assert returned.status_code == 200, returned.text
    # Answered once: the same request cannot be answered again.
    again = teacher.request("POST", f"{judge}/lti/deep-link/{token}", data={"csrf_token": csrf, "problem": slugs})
    assert again.status_code == 404
    return [link for link in lms.links if link not in before]


def hand_in(browser: LmsBrowser, slug: str, code: str) -> dict[str, Any]:
    sent = browser.api("POST", "/submissions", json={"problem": slug, "code": code, "mode": "submit"})
    assert sent.status_code == 202, sent.text
    deadline = time.monotonic() + 90
    while True:
        body: dict[str, Any] = browser.api("GET", f"/submissions/{sent.json()['id']}?wait=10").json()
        if body["status"] == "done":
            return body
        assert time.monotonic() < deadline, body


def test_register_deep_link_launch_submit_and_the_score_arrives(
        judge: str, grade_sender: subprocess.Popen[bytes], lms: Platform) -> None:
    admin = new_admin()
    register_dynamically(judge, lms, admin)
    tag = uuid.uuid4().hex[:6]  # names of this test's own: the database is the session's
    tess, ann, bob = f"Tess Teacher {tag}", f"Ann Lee {tag}", f"Bob Ray {tag}"
    lms.add_user("tess", tess, "tess@example.org", roles=[INSTRUCTOR])
    lms.add_user("ann", ann, "ann@example.org", roles=[LEARNER])
    lms.add_user("bob", bob, "bob@example.org", roles=[LEARNER])
    second = f"lookup_two_{uuid.uuid4().hex[:6]}"
    publish_copy(judge, second)

    teacher = LmsBrowser(judge)
    links = deep_link(judge, lms, teacher, ["secret_lookup", second])
    assert len(links) == 2
    items = {lms.links[link].custom["problem"]: lms.links[link].line_item_id for link in links}
    assert set(items) == {"secret_lookup", second} and all(items.values())
    for item in items.values():
        assert lms.line_items[str(item)]["scoreMaximum"] == 1

    # The instructor is the course's instructor, and a judge instructor, never an admin.
    me = teacher.api("GET", "/me").json()
    assert (me["name"], me["role"]) == (tess, "instructor")

    learner = LmsBrowser(judge)
    by_slug = {lms.links[link].custom["problem"]: link for link in links}
    landed = learner.launch(lms.launch_start_url("ann", by_slug["secret_lookup"]))
    assert landed.status_code == 303 and landed.headers["location"] == "/problems/secret_lookup"
    me = learner.api("GET", "/me").json()
    assert (me["name"], me["role"], me["email"]) == (ann, "learner", "ann@example.org")
    courses = learner.api("GET", "/courses").json()
    assert [c["role"] for c in courses] == ["learner"]

    assert hand_in(learner, "secret_lookup", WRONG)["verdict"] == "wrong_answer"
    [first] = lms.wait_for_scores(str(items["secret_lookup"]), 1)
    assert (first["userId"], first["scoreGiven"], first["scoreMaximum"]) == ("ann", 0.0, 1)
    assert (first["activityProgress"], first["gradingProgress"]) == ("Submitted", "FullyGraded")
    assert hand_in(learner, "secret_lookup", RIGHT)["verdict"] == "accepted"
    scores = lms.wait_for_scores(str(items["secret_lookup"]), 2)
    assert (scores[-1]["scoreGiven"], scores[-1]["activityProgress"]) == (1.0, "Completed")

    # The second link: launched, handed in, its own line item.
    assert learner.launch(lms.launch_start_url("ann", by_slug[second])).headers["location"] == f"/problems/{second}"
    assert hand_in(learner, second, RIGHT)["verdict"] == "accepted"
    [other] = lms.wait_for_scores(str(items[second]), 1)
    assert (other["userId"], other["scoreGiven"]) == ("ann", 1.0)
    # One token per process and scope, kept until it expires: far fewer than the scores sent.
    assert 1 <= lms.tokens_issued < 3

    # The roster: Bob, who never launched, joins the course (two members a page on this LMS).
    course_id = courses[0]["id"]
    pulled = teacher.api("POST", f"/courses/{course_id}/lti-roster")
    assert pulled.status_code == 200, pulled.text
    assert pulled.json()["members"] == 3 and pulled.json()["pages"] == 2 and pulled.json()["added"] == 1
    members = {m["user"]: m["role"] for m in teacher.api("GET", f"/courses/{course_id}").json()["members"]}
    assert members == {tess: "instructor", ann: "learner", bob: "learner"}
    with session_scope() as session:
        rows = session.query(LtiGradeSync).all()
        states = sorted(row.state for row in rows if row.user.name == ann)
    assert states == ["sent", "sent"]

    # The judge rotates its keys: the key that was published ahead signs, and the LMS, which
    # cached the key set, still takes a deep-linking answer.
    with session_scope() as session:
        keys.rotate(session)
    assert len(deep_link(judge, lms, teacher, ["secret_lookup"])) == 1
