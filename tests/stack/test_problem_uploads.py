"""Instructors author problems: JSON or archive, validated in the sandbox, then published."""

from __future__ import annotations

import io
import tarfile
import zipfile

import pytest
from fastapi.testclient import TestClient

from tests.utils.service import REFERENCE, bearer, submit, wait_done, wait_version
from tests.utils.service_fixtures import Tokens, problem_files


def create(client: TestClient, token: str, slug: str, files: dict[str, str]):  # type: ignore[no-untyped-def]
    return client.post("/api/v1/problems", headers=bearer(token), json={"slug": slug, "files": files})


def test_json_problem_goes_through_validation_to_publish(client: TestClient, tokens: Tokens) -> None:
    response = create(client, tokens.instructor, "json_lookup", problem_files("json_lookup"))
    assert response.status_code == 201, response.text
    assert response.json()["status"] == "draft" and response.json()["published"] is False
    # A draft is invisible to learners and cannot take submissions.
    assert client.get("/api/v1/problems/json_lookup", headers=bearer(tokens.learner)).status_code == 404
    version = wait_version(client, tokens.instructor, "json_lookup")
    assert version["status"] == "valid" and version["validation"]["failures"] == []
    published = client.post("/api/v1/problems/json_lookup/publish", headers=bearer(tokens.instructor), json={})
    assert published.status_code == 200 and published.json()["published"] is True
    seen = client.get("/api/v1/problems/json_lookup", headers=bearer(tokens.learner)).json()
    assert seen["published"] is True and seen["signature"] == "def lookup(key: str) -> str"
    assert "<p>" in seen["statement_html"] and len(seen["public_tests"]) == 2
    done = wait_done(client, tokens.learner, submit(client, tokens.learner, REFERENCE, problem="json_lookup")["id"])
    assert done["verdict"] == "accepted"


def _tar_gz(files: dict[str, str], top: str) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(f"{top}/{name}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def _zip(files: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return buffer.getvalue()


@pytest.mark.parametrize("kind", ["tar.gz", "zip"])
def test_archive_upload(client: TestClient, tokens: Tokens, kind: str) -> None:
    slug = f"archived_{kind.replace('.', '_')}"
    files = problem_files(slug)
    data = _tar_gz(files, slug) if kind == "tar.gz" else _zip(files)
    response = client.post("/api/v1/problems", headers=bearer(tokens.instructor),
                           files={"archive": (f"{slug}.{kind}", data)})
    assert response.status_code == 201, response.text
    assert wait_version(client, tokens.instructor, slug)["status"] == "valid"
    assert client.post(f"/api/v1/problems/{slug}/publish", headers=bearer(tokens.instructor),
                       json={}).status_code == 200


def test_failing_validation_blocks_publishing(client: TestClient, tokens: Tokens) -> None:
    # The known-wrong solution declares a verdict it does not get.
    files = problem_files("broken_lookup", **{"wrong/guess.py": "# verdict: time_limit_exceeded\n"
                                              "def lookup(key):\n    return 'zq-secret-' + key\n"})
    assert create(client, tokens.instructor, "broken_lookup", files).status_code == 201
    version = wait_version(client, tokens.instructor, "broken_lookup")
    assert version["status"] == "invalid"
    assert "wrong/guess.py got wrong_answer, declared time_limit_exceeded" in version["validation"]["failures"][0]
    response = client.post("/api/v1/problems/broken_lookup/publish", headers=bearer(tokens.instructor), json={})
    assert response.status_code == 409 and "cannot be published: it is invalid" in response.json()["error"]["message"]


def test_invalid_folder_is_refused_at_once_naming_file_and_key(client: TestClient, tokens: Tokens) -> None:
    files = problem_files("bad_lookup")
    files["problem.toml"] += "\n[rules]\nbanned = 3\n"
    response = create(client, tokens.instructor, "bad_lookup", files)
    assert response.status_code == 422
    message = response.json()["error"]["message"]
    assert message.startswith("bad_lookup/problem.toml: unknown key rules.'banned'; valid keys are")
    escape = create(client, tokens.instructor, "escape_lookup", {**problem_files("escape_lookup"), "../x.py": ""})
    assert escape.status_code == 422 and "not a relative path" in escape.json()["error"]["message"]
    # Nothing of a refused problem was kept: the slug is still free.
    assert client.get("/api/v1/problems/bad_lookup", headers=bearer(tokens.instructor)).status_code == 404


def test_duplicate_slug_is_409(client: TestClient, tokens: Tokens) -> None:
    response = create(client, tokens.instructor, "secret_lookup", problem_files("secret_lookup"))
    assert response.status_code == 409


def test_rejudge_after_a_new_version(client: TestClient, tokens: Tokens) -> None:
    slug = "rejudged_lookup"
    assert create(client, tokens.instructor, slug, problem_files(slug)).status_code == 201
    first = wait_version(client, tokens.instructor, slug)
    client.post(f"/api/v1/problems/{slug}/publish", headers=bearer(tokens.instructor), json={})
    done = wait_done(client, tokens.learner, submit(client, tokens.learner, REFERENCE, problem=slug)["id"])
    assert done["verdict"] == "accepted" and done["problem_version"] == first["version"]

    # Version 2 changes one hidden answer: the old solution is now wrong.
    changed = problem_files(slug, **{
        "tests/hidden.json": problem_files(slug)["tests/hidden.json"].replace("zq-secret-205", "zq-secret-999"),
        "reference.py": REFERENCE.replace("zq-secret-205", "zq-secret-999"),
    })
    response = client.put(f"/api/v1/problems/{slug}", headers=bearer(tokens.instructor), json={"files": changed})
    assert response.status_code == 200, response.text
    second = wait_version(client, tokens.instructor, slug)
    assert second["status"] == "valid" and second["version"] != first["version"]
    client.post(f"/api/v1/problems/{slug}/publish", headers=bearer(tokens.instructor), json={})

    rejudged = client.post(f"/api/v1/problems/{slug}/rejudge", headers=bearer(tokens.instructor))
    assert rejudged.status_code == 200 and rejudged.json()["requeued"] == 1
    again = wait_done(client, tokens.learner, done["id"])
    assert again["verdict"] == "wrong_answer" and again["problem_version"] == second["version"]
    assert again["score"] == pytest.approx(4 / 5)


def test_stats_with_wilson_interval(client: TestClient, tokens: Tokens) -> None:
    slug = "stats_lookup"
    create(client, tokens.instructor, slug, problem_files(slug))
    wait_version(client, tokens.instructor, slug)
    client.post(f"/api/v1/problems/{slug}/publish", headers=bearer(tokens.instructor), json={})
    for code in (REFERENCE, REFERENCE, "def lookup(key):\n    return key\n"):
        wait_done(client, tokens.other_learner, submit(client, tokens.other_learner, code, problem=slug)["id"])
    submit(client, tokens.other_learner, REFERENCE, problem=slug, mode="run")  # runs do not count
    stats = client.get(f"/api/v1/problems/{slug}/stats", headers=bearer(tokens.learner)).json()
    assert stats["submissions"] == 3 and stats["accepted"] == 2
    assert stats["acceptance_rate"] == pytest.approx(2 / 3)
    low, high = stats["wilson_95"]
    assert low == pytest.approx(0.2077, abs=1e-4) and high == pytest.approx(0.9385, abs=1e-4)
