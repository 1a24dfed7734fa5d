"""The author's validation quota holds when uploads arrive at once, on PostgreSQL: the count and
the insert of a draft are one step per author, so parallel uploads never leave more drafts
waiting than the quota (the unit layer's SQLite cannot show this race).

No validation message is sent (the queue is the part replaced here), so the author's drafts stay
waiting for the whole test and the count is exact; the database, the API and its locks are real.
Each upload lingers a moment after its count, before it commits, so that the uploads overlap
there on any machine (without the lock every one of them then counts too few)."""

from __future__ import annotations

import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from service import authoring
from service.db.models import ProblemRow, ProblemVersion, Role, VersionStatus
from service.db.session import session_scope
from service.settings import get_settings
from tests.utils.accounts import make_account
from tests.utils.service import bearer
from tests.utils.service_fixtures import problem_files


def test_parallel_uploads_never_pass_the_authors_validation_quota(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    author = make_account(Role.INSTRUCTOR, prefix="quota-race")
    sent: list[int] = []
    monkeypatch.setattr(authoring, "enqueue_validation", sent.append)
    check = authoring._check_validation_quota

    def check_then_linger(*args: Any) -> None:
        check(*args)
        time.sleep(0.3)

    monkeypatch.setattr(authoring, "_check_validation_quota", check_then_linger)
    quota = get_settings().author_validation_quota
    tag = uuid.uuid4().hex[:6]

    def upload(n: int) -> int:
        response = client.post("/api/v1/problems", headers=bearer(author.token),
                               json={"slug": f"race_{tag}_{n}", "files": problem_files(f"race_{tag}_{n}")})
        return int(response.status_code)

    with ThreadPoolExecutor(max_workers=8) as pool:
        statuses = sorted(pool.map(upload, range(quota + 6)))
    assert statuses == [201] * quota + [429] * 6, statuses
    with session_scope() as session:
        waiting = session.scalar(select(func.count()).select_from(ProblemVersion).join(
            ProblemRow, ProblemRow.id == ProblemVersion.problem_id).where(
            ProblemRow.owner_id == author.id, ProblemVersion.status == VersionStatus.DRAFT))
    assert waiting == quota == len(sent)
