"""A Sandbox double: answers each payload with records a test scripts, no container involved."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from sandbox import codec
from sandbox.interface import Payload, RawRun

Responder = Callable[[Payload], list[dict[str, Any]]]


def returned(test_id: str, value: Any, args_after: list[Any] | None = None) -> dict[str, Any]:
    return {"kind": "test", "id": test_id, "outcome": "returned", "value": codec.encode(value),
            "args_after": [codec.encode(a) for a in args_after or []], "kwargs_after": {},
            "stdout": "", "seconds": 0.001}


class FakeSandbox:
    """Records every payload; answers with the responder's records, framed as the harness does."""

    def __init__(self, responder: Responder) -> None:
        self.responder = responder
        self.payloads: list[Payload] = []

    def run(self, payload: Payload) -> RawRun:
        self.payloads.append(payload)
        records = [{"kind": "import", "ok": True, "stdout": ""}, *self.responder(payload)]
        return RawRun([json.dumps(r).encode() for r in records])

