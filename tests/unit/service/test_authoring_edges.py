"""The authoring rough edges over HTTP: a new version from a changed archive (and hostile ones), a
formula that does not render making a version invalid, the preview's hints, editorial and Run
on a draft version, and a rejudge that is counted before it starts and says which verdicts it
changed."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete, select

from service.db.models import ProblemRow, Rejudge, RejudgeItem, Role
from service.db.session import session_scope
from service.settings import get_settings
from tests.unit.service.helpers import RATIO, error, publish, ratio_files, read
from tests.utils.service import bearer, submit
from tests.utils.service_fixtures import Tokens

API = "/api/v1/problems"


def zipped(files: dict[str, str], folder: str = "") -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as packed:
        for path, text in files.items():
            packed.writestr(folder + path, text)
    return out.getvalue()


def put_archive(client: TestClient, token: str, slug: str, data: bytes, name: str = "p.zip") -> Any:
    return client.put(f"{API}/{slug}", headers=bearer(token), files={"archive": (name, data)})


def version(client: TestClient, token: str, slug: str, hash_: str) -> dict[str, Any]:
    response = client.get(f"{API}/{slug}/versions/{hash_}", headers=bearer(token))
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


@pytest.fixture
def author(new_user: Callable[[Role], str]) -> str:
    """A fresh instructor: each test's drafts count against its own validation quota."""
    return new_user(Role.INSTRUCTOR)


# 1. A new version from a changed .zip --------------------------------------------------------

def test_a_changed_zip_becomes_a_new_version_that_is_validated(client: TestClient, author: str) -> None:
    slug = publish(client, author, "edge_zip_new", ratio_files("edge_zip_new"))
    changed = ratio_files(slug, **{"statement.md": "Return the share of hits, `hits / total`.\n"})
    response = put_archive(client, author, slug, zipped(changed, folder=f"{slug}/"))
    assert response.status_code == 200, response.text
    created = response.json()
    assert created["status"] == "draft" and created["published"] is False
    listed = client.get(f"{API}/{slug}/versions", headers=bearer(author)).json()
    assert [v["version"] for v in listed][-1] == created["version"] and len(listed) == 2
    assert version(client, author, slug, created["version"])["status"] == "valid"  # validated eagerly


def test_an_upload_that_is_not_a_zip_is_refused_naming_the_upload(client: TestClient, author: str) -> None:
    slug = publish(client, author, "edge_zip_junk", ratio_files("edge_zip_junk"))
    message = error(put_archive(client, author, slug, b"this is not a zip at all", "changed.zip"),
                    422, "invalid_input")
    assert "changed.zip" in message and "not a readable zip" in message
    assert len(client.get(f"{API}/{slug}/versions", headers=bearer(author)).json()) == 1


def test_a_zip_with_bad_json_names_the_file_and_the_line(client: TestClient, author: str) -> None:
    slug = publish(client, author, "edge_zip_json", ratio_files("edge_zip_json"))
    broken = ratio_files(slug, **{"tests/public.json": '[\n  {"name": "half",\n  "args": [1, 2]\n'})
    message = error(put_archive(client, author, slug, zipped(broken)), 422, "invalid_input")
    assert "tests/public.json" in message and "line 4" in message, message


def test_a_zip_that_unpacks_past_the_cap_is_refused(client: TestClient, author: str) -> None:
    slug = publish(client, author, "edge_zip_bomb", ratio_files("edge_zip_bomb"))
    bomb = ratio_files(slug, **{"big.txt": "0" * (21 * 2**20)})  # 21 MiB of zeros: ~20 KiB zipped
    message = error(put_archive(client, author, slug, zipped(bomb)), 422, "invalid_input")
    assert "big.txt" in message and "20 MiB" in message, message


def test_an_archive_over_the_body_cap_is_413(client: TestClient, author: str) -> None:
    slug = publish(client, author, "edge_zip_huge", ratio_files("edge_zip_huge"))
    huge = b"PK" + b"\0" * get_settings().max_request_bytes
    error(put_archive(client, author, slug, huge), 413, "too_large")


def test_only_the_owner_uploads_a_new_version(client: TestClient, author: str, tokens: Tokens) -> None:
    slug = publish(client, author, "edge_zip_owner", ratio_files("edge_zip_owner"))
    data = zipped(ratio_files(slug, **{"statement.md": "Changed.\n"}))
    error(put_archive(client, tokens.other_instructor, slug, data), 403)
    error(put_archive(client, tokens.learner, slug, data), 403)


# 2. Formulas that do not render -------------------------------------------------------------

@pytest.mark.parametrize(("path", "text", "where"), [
    ("hints.md", "## Start\n\nDivide $h$ by $t$.\n\n## Next\n\nIt is\n$\\frac{h}$ here.\n",
     {"file": "hints.md", "hint": 2, "line": 2, "formula": "$\\frac{h}$"}),
    ("statement.md", "Return the ratio.\n\n$$\n\\ratio{h}{t}\n$$\n",
     {"file": "statement.md", "hint": None, "line": 4, "formula": "$$\\ratio{h}{t}$$"}),
    ("editorial.md", "# Idea\n\nOne division: $h^{2$.\n",
     {"file": "editorial.md", "hint": None, "line": 3, "formula": "$h^{2$"}),
])
def test_a_formula_that_does_not_render_makes_the_version_invalid(
        client: TestClient, author: str, path: str, text: str, where: dict[str, Any]) -> None:
    slug = f"edge_math_{path.split('.')[0]}"
    created = client.post(API, headers=bearer(author), json={"slug": slug, "files": ratio_files(slug, **{path: text})})
    assert created.status_code == 201, created.text
    found = version(client, author, slug, created.json()["version"])
    assert found["status"] == "invalid"
    report = found["validation"]
    assert len(report["formulas"]) == 1, report
    formula = report["formulas"][0]
    assert {k: formula[k] for k in where} == where and formula["reason"], formula
    assert any(path in f and where["formula"] in f for f in report["failures"]), report["failures"]
    # The rest was still checked: the reference passed, so the formula is the only failure.
    assert report["reference"]["verdict"] == "accepted" and len(report["failures"]) == 1
    refused = client.post(f"{API}/{slug}/publish", headers=bearer(author), json={})
    assert where["formula"] in error(refused, 409, "conflict")


def test_formulas_that_render_leave_the_version_valid(client: TestClient, author: str) -> None:
    # ratio_files' hints and editorial hold $h$, $t = 0$ and $\frac{h}{t}$; a price is not math.
    slug = "edge_math_fine"
    files = ratio_files(slug, **{"statement.md": "It costs $5 and $10; return $\\frac{h}{t}$.\n"})
    created = client.post(API, headers=bearer(author), json={"slug": slug, "files": files})
    found = version(client, author, slug, created.json()["version"])
    assert found["status"] == "valid" and found["validation"]["formulas"] == [], found


# 3. The preview: hints, editorial, tolerance and Run on a draft -----------------------------

def test_the_preview_holds_every_hint_the_editorial_and_the_checker(client: TestClient, author: str) -> None:
    slug = "edge_preview_parts"
    toml = ratio_files(slug)["problem.toml"].replace('name = "float"', 'name = "float"\nabs_tol = 0.001')
    created = client.post(API, headers=bearer(author), json={
        "slug": slug, "files": ratio_files(slug, **{"problem.toml": toml})})
    assert created.status_code == 201, created.text
    view = client.get(f"{API}/{slug}/preview", headers=bearer(author)).json()
    assert [h["index"] for h in view["hints"]] == [1, 2, 3]
    assert "<math" in view["hints"][0]["html"] and view["hints"][0]["markdown"].startswith("Divide")
    assert "<mfrac>" in view["editorial"]["html"]
    assert view["checker"]["name"] == "float" and view["checker"]["abs_tol"] == 0.001
    # The learner's page of a published problem keeps hints behind reveals.
    assert "hints" not in client.get(f"{API}/{slug}", headers=bearer(author)).json()


def test_run_in_the_preview_judges_the_draft_version_on_its_public_tests(
        client: TestClient, author: str, tokens: Tokens) -> None:
    slug = publish(client, author, "edge_preview_run", ratio_files("edge_preview_run"))
    # A draft whose public test expects what the published one does not: the run must use it.
    public = json.dumps([{"name": "quarter", "args": [1, 4], "expected": 0.25}])
    draft = client.put(f"{API}/{slug}", headers=bearer(author),
                       json={"files": ratio_files(slug, **{"tests/public.json": public})}).json()
    response = client.post(f"{API}/{slug}/versions/{draft['version']}/runs", headers=bearer(author),
                           json={"code": RATIO})
    assert response.status_code == 202, response.text
    ran = read(client, author, response.json()["id"]).json()
    assert ran["mode"] == "run" and ran["problem_version"] == draft["version"]
    assert ran["status"] == "done" and ran["verdict"] == "accepted"
    assert [t["name"] for t in ran["tests"]] == ["quarter"]  # public tests only, the draft's


def test_run_in_the_preview_is_the_owners_alone(client: TestClient, author: str, tokens: Tokens) -> None:
    slug = publish(client, author, "edge_preview_who", ratio_files("edge_preview_who"))
    newest = client.get(f"{API}/{slug}/versions", headers=bearer(author)).json()[-1]["version"]
    runs = f"{API}/{slug}/versions/{newest}/runs"
    for token in (tokens.learner, tokens.other_instructor):
        error(client.post(runs, headers=bearer(token), json={"code": RATIO}), 404, "not_found")
    admin = client.post(runs, headers=bearer(tokens.admin), json={"code": RATIO})
    assert admin.status_code == 202, admin.text
    error(client.post(f"{API}/{slug}/versions/nosuchversion/runs", headers=bearer(author),
                      json={"code": RATIO}), 404, "not_found")
    too_big = "x = 1\n" * (get_settings().max_code_bytes // 6 + 1)
    error(client.post(runs, headers=bearer(author), json={"code": too_big}), 413, "too_large")
    error(client.post(runs, headers=bearer(author), json={"code": "a\x00b"}), 422, "invalid_input")
    error(client.post(runs, headers=bearer(author), json={}), 422, "invalid_input")


# 5. Rejudge: counted first, and the verdicts it changed ------------------------------------

def test_a_rejudge_is_counted_before_and_says_which_verdicts_changed(
        client: TestClient, author: str, tokens: Tokens) -> None:
    slug = publish(client, author, "edge_rejudge", ratio_files("edge_rejudge"))
    half = "def ratio(hits, total):\n    return 0.5\n"  # right for the public test only
    passing = submit(client, tokens.learner, RATIO, slug)
    lucky = submit(client, tokens.other_learner, half, slug)
    submit(client, tokens.learner, half, slug, mode="run")
    assert read(client, author, lucky["id"]).json()["verdict"] == "wrong_answer"  # the hidden third

    # A new version whose hidden tests all give 0.5: "half" is now accepted.
    hidden = json.dumps([{"name": "twin", "args": [2, 4], "expected": 0.5}])
    wrong = "# verdict: wrong_answer\ndef ratio(hits, total):\n    return 0.0\n"
    changed = client.put(f"{API}/{slug}", headers=bearer(author), json={"files": ratio_files(
        slug, **{"tests/hidden.json": hidden, "wrong/zero.py": wrong})}).json()
    assert client.post(f"{API}/{slug}/publish", headers=bearer(author),
                       json={"version": changed["version"]}).status_code == 200

    plan = client.get(f"{API}/{slug}/rejudge", headers=bearer(author))
    assert plan.status_code == 200, plan.text
    assert plan.json() == {"problem": slug, "version": changed["version"], "submissions": 3}
    done = client.post(f"{API}/{slug}/rejudge", headers=bearer(author)).json()
    assert done["requeued"] == 3

    progress = client.get(f"{API}/{slug}/rejudges/latest", headers=bearer(author)).json()
    assert progress["done"] == progress["total"] == 3
    counts = {c["verdict"]: (c["before"], c["after"]) for c in progress["verdicts"]}
    assert counts == {"accepted": (2, 3), "wrong_answer": (1, 0)}, progress["verdicts"]
    assert progress["changed"] == [{"id": lucky["id"], "user": "test-other_learner",
                                    "before": "wrong_answer", "after": "accepted"}]
    assert progress["changed_total"] == 1
    assert passing["id"] not in [c["id"] for c in progress["changed"]]


def test_the_rejudge_count_and_its_changes_are_the_owners(client: TestClient, author: str, tokens: Tokens) -> None:
    slug = publish(client, author, "edge_rejudge_who", ratio_files("edge_rejudge_who"))
    for path in ("rejudge", "rejudges/latest"):
        error(client.get(f"{API}/{slug}/{path}", headers=bearer(tokens.other_instructor)), 403)
        error(client.get(f"{API}/{slug}/{path}", headers=bearer(tokens.learner)), 403)
    assert client.get(f"{API}/{slug}/rejudge", headers=bearer(tokens.admin)).json()["submissions"] == 0


def test_a_rejudge_of_a_problem_never_published_is_refused_before(client: TestClient, author: str) -> None:
    slug = "edge_rejudge_draft"
    assert client.post(API, headers=bearer(author), json={"slug": slug, "files": ratio_files(slug)}).status_code == 201
    assert "no published version" in error(client.get(f"{API}/{slug}/rejudge", headers=bearer(author)), 409)


def test_a_rejudge_from_before_verdicts_were_kept_lists_no_changes(
        client: TestClient, author: str, tokens: Tokens) -> None:
    slug = publish(client, author, "edge_rejudge_old", ratio_files("edge_rejudge_old"))
    submit(client, tokens.learner, RATIO, slug)
    assert client.post(f"{API}/{slug}/rejudge", headers=bearer(author)).status_code == 200
    with session_scope() as session:  # as a rejudge asked for before migration 0009 left it
        problem_id = session.scalar(select(ProblemRow.id).where(ProblemRow.slug == slug))
        rejudge_ids = select(Rejudge.id).where(Rejudge.problem_id == problem_id)
        session.execute(delete(RejudgeItem).where(RejudgeItem.rejudge_id.in_(rejudge_ids)))
        session.commit()
    progress = client.get(f"{API}/{slug}/rejudges/latest", headers=bearer(author)).json()
    assert progress["total"] == progress["done"] == 1
    assert (progress["verdicts"], progress["changed"], progress["changed_total"]) == ([], [], 0)
