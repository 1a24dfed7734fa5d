"""A validation always ends: a failure of the judge's own while validating makes the version
invalid with the reason, rather than leaving it a draft that nothing will ever validate."""

from __future__ import annotations

import uuid

import pytest
from fastapi.testclient import TestClient

from tests.unit.service.exec_sandbox import ExecSandbox
from tests.utils.service import bearer, wait_version
from tests.utils.service_fixtures import Tokens, problem_files


def test_a_judge_failure_while_validating_ends_the_version_invalid_saying_so(
        client: TestClient, tokens: Tokens, exec_sandbox: ExecSandbox,
        monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_: object) -> None:
        raise RuntimeError("the double broke")

    monkeypatch.setattr(exec_sandbox, "run", broken)
    slug = f"broken_judge_{uuid.uuid4().hex[:6]}"
    response = client.post("/api/v1/problems", headers=bearer(tokens.instructor),
                           json={"slug": slug, "files": problem_files(slug)})
    assert response.status_code == 201, response.text
    version = wait_version(client, tokens.instructor, slug, timeout=10)
    assert version["status"] == "invalid"
    assert version["validation"]["failures"] == [
        "the judge failed while validating: RuntimeError: the double broke"]
