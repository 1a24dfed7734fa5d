"""On PostgreSQL: a pooled connection the server closed while it sat idle is replaced at
check-out, and a verdict's claim and storing are a statement each
(tests/unit/service/test_service_costs.py; the unit layer's SQLite has no server and stores a
verdict statement by statement)."""

from __future__ import annotations

import pytest

from tests.unit.service.test_service_costs import (
    statements,
    test_a_connection_the_server_closed_is_replaced_and_a_live_one_kept,
    test_a_judged_submission_is_read_by_its_claim_alone,
)

__all__ = ["statements", "test_a_connection_the_server_closed_is_replaced_and_a_live_one_kept",
           "test_a_judged_submission_is_read_by_its_claim_alone"]

pytestmark = pytest.mark.usefixtures("tokens")  # as in the module they come from
