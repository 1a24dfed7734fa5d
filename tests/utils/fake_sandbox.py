"""A Sandbox double: answers each payload with results a test scripts, no container involved."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sandbox.inside import codec
from sandbox.inside.protocol import CallResult, Outcome
from sandbox.interface import Payload, SandboxRun, TestInput

Responder = Callable[[Payload], list[CallResult]]


def returned(test: TestInput, value: Any, args_after: list[Any] | None = None) -> CallResult:
    """The call returned value; its arguments came back as args_after (default: unchanged)."""
    after = args_after if args_after is not None else [codec.decode(a) for a in test.args]
    return CallResult(Outcome.RETURNED, value=value, args_after=after,
                      kwargs_after={k: codec.decode(v) for k, v in test.kwargs.items()},
                      seconds=0.001)


class FakeSandbox:
    """Records every payload; answers with the responder's results, as DockerSandbox would."""

    def __init__(self, responder: Responder, loaded: CallResult | None = None) -> None:
        self.responder = responder
        self.loaded = loaded or CallResult(Outcome.RETURNED)
        self.payloads: list[Payload] = []

    def check(self) -> None:
        """A fake is always available."""

    def run(self, payload: Payload) -> SandboxRun:
        self.payloads.append(payload)
        results = self.responder(payload) if self.loaded.outcome is Outcome.RETURNED else []
        return SandboxRun(self.loaded, results)
