"""A pooled connection the PostgreSQL server closed while it sat idle is replaced at check-out
(tests/unit/service/test_service_costs.py; the unit layer's SQLite has no server)."""

from __future__ import annotations

from tests.unit.service.test_service_costs import (
    test_a_connection_the_server_closed_is_replaced_and_a_live_one_kept,
)

__all__ = ["test_a_connection_the_server_closed_is_replaced_and_a_live_one_kept"]
