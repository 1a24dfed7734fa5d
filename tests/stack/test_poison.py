"""Poison submissions through the whole service: HTTP, queue, worker, Docker, PostgreSQL, Redis.

The learner programs are the attack suite's own (tests/sandbox/attacks/, secret_lookup ones): broken
claims, text no database stores, output floods, a time-out that must stop the run early and a fork
bomb. Each must be judged (``done``) within a minute with the attack's declared verdict, and
``GET /api/v1/submissions/{id}`` must answer 200 with valid JSON that shows the learner nothing of
the hidden tests.
"""

from __future__ import annotations

import json
import time

import pytest
from fastapi.testclient import TestClient

from tests.utils.attacks import ATTACKS_DIR, Attack, attack_problem, leaks, parse_attack, unsafe_text
from tests.utils.service import bearer, submit
from tests.utils.service_fixtures import Tokens

pytestmark = pytest.mark.docker

DEADLINE = 60.0  # seconds from POST to a done submission
POISON = [
    # claims that break the parser
    "claim_nested_100k", "claim_nan_infinity", "claim_duplicate_keys", "claim_5mb",
    "claim_trailing_bytes", "claim_invalid_utf8_outside_strings", "claim_wrong_field_types",
    "claim_unclaimable_outcome",
    # NUL bytes and lone surrogates in values, messages, type names and output
    "return_nul_string", "return_lone_surrogates", "exception_nul_surrogate_message",
    "print_invalid_utf8", "forged_opaque_type_name", "forged_error_type_nul",
    # output floods
    "flood_print", "flood_stderr", "flood_os_write_stdout", "flood_at_import",
    # a time-out that must stop the run at once, and a fork bomb
    "claim_then_hang", "fork_bomb",
    # hidden data must stay out of the learner's GET
    "oracle_leak_via_type_name", "oracle_leak_via_hidden_output",
    # learner code that can turn a run into the judge's own failure (SandboxUnavailable)
    "fork_bomb_ghosts", "claim_escape_blowup",
]


def _attack(name: str) -> Attack:
    attack = parse_attack(ATTACKS_DIR / f"{name}.py")
    assert attack.problem == "secret_lookup", "the service's problems are the fixtures"
    return attack


def _wait_done(client: TestClient, token: str, submission_id: int, started: float) -> dict[str, object]:
    while True:
        response = client.get(f"/api/v1/submissions/{submission_id}?wait=5", headers=bearer(token))
        assert response.status_code == 200, response.text[:500]
        body: dict[str, object] = response.json()
        if body["status"] == "done":
            return body
        assert time.monotonic() - started < DEADLINE, (
            f"submission {submission_id} not judged within {DEADLINE:.0f} s: status {body['status']}, "
            f"message {str(body.get('message'))[:300]!r}")


@pytest.mark.parametrize("name", POISON)
def test_poison_submission_is_judged_and_readable(client: TestClient, tokens: Tokens, name: str) -> None:
    attack = _attack(name)
    started = time.monotonic()
    created = submit(client, tokens.learner, attack.code)
    done = _wait_done(client, tokens.learner, created["id"], started)
    assert done["verdict"] == attack.verdict.value, (
        f"{name}: expected {attack.verdict.value}, got {done['verdict']}: {str(done.get('message'))[:300]}")

    response = client.get(f"/api/v1/submissions/{created['id']}", headers=bearer(tokens.learner))
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    body = json.loads(response.content.decode("utf-8"))  # strict UTF-8, valid JSON
    assert body["id"] == created["id"] and body["status"] == "done"
    assert not unsafe_text({k: v for k, v in body.items() if k != "code"}), "NUL or lone surrogates stored"
    assert body["hidden"] is not None and "name" not in json.dumps(body["hidden"])
    leaked = leaks(attack_problem("secret_lookup"), attack.code, body)
    assert not leaked, f"{name}: the learner's GET shows hidden data {leaked}: {json.dumps(body['hidden'])[:300]}"
