"""One author's drafts waiting for validation are bounded: the validation worker's time is
shared by every author, and each draft may take JUDGE_MAX_VALIDATION_SECONDS of it. Messages
are held (no validation worker drains the queue), so the author's drafts stay waiting."""

from __future__ import annotations

import uuid
from collections.abc import Callable

from fastapi.testclient import TestClient

from service.db.models import Role
from service.settings import get_settings
from tests.unit.service.conftest import EagerQueue
from tests.unit.service.helpers import error
from tests.utils.service import bearer
from tests.utils.service_fixtures import problem_files


def upload(client: TestClient, token: str, slug: str):  # type: ignore[no-untyped-def]
    return client.post("/api/v1/problems", headers=bearer(token),
                       json={"slug": slug, "files": problem_files(slug)})


def test_an_author_over_the_validation_quota_is_429_until_a_draft_is_validated(
        client: TestClient, new_user: Callable[[Role], str], eager_queue: EagerQueue) -> None:
    author, other = new_user(Role.INSTRUCTOR), new_user(Role.INSTRUCTOR)
    quota = get_settings().author_validation_quota
    tag = uuid.uuid4().hex[:6]
    with eager_queue.hold():
        for n in range(quota):
            assert upload(client, author, f"quota_{tag}_{n}").status_code == 201
        over = upload(client, author, f"quota_{tag}_over")
        message = error(over, 429, "quota_exceeded")
        assert message == (f"{quota} drafts of your problems are waiting for validation; the limit "
                           f"is {quota}: upload again once one is validated")
        assert int(over.headers["Retry-After"]) > 0
        # Nothing of the refused upload was kept, its slug included.
        assert client.get(f"/api/v1/problems/quota_{tag}_over", headers=bearer(author)).status_code == 404
        # A new version of a problem the author has is a draft too.
        edited = client.put(f"/api/v1/problems/quota_{tag}_0", headers=bearer(author), json={
            "files": problem_files(f"quota_{tag}_0", **{"statement.md": "Look a key up, again.\n"})})
        error(edited, 429, "quota_exceeded")
        assert upload(client, other, f"quota_{tag}_other").status_code == 201  # another author's own
    eager_queue.release()
    assert upload(client, author, f"quota_{tag}_over").status_code == 201
