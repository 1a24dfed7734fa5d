"""PID 1 of every sandbox container. Standard library only.

With no arguments it is the supervisor of the container's one submission
(``sandbox.inside.harness``); with ``slot`` and the slot's arguments it is a slot's template,
which serves one submission after another, each in a fresh jail (``sandbox.inside.jail``).
"""

from __future__ import annotations

import sys


def main() -> None:
    if sys.argv[1:2] == ["slot"]:
        from sandbox.inside import jail
        jail.main(sys.argv[2:])
        return
    from sandbox.inside import harness
    try:
        harness.serve(linger=True)
    except SystemExit as exc:
        if exc.code != harness.STREAM_CLOSED:
            raise
        # Nothing was ever sent (a warm container whose holder went away): end quietly.
