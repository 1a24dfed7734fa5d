"""docker-compose.yml: every service comes back by itself after it exits (a crash, a reboot, an
engine restart), until it is stopped on purpose. Read as text: the project needs no YAML parser,
and the file's layout (two-space indents, one service per key) is its own."""

from __future__ import annotations

import re
from pathlib import Path

COMPOSE = Path(__file__).resolve().parents[3] / "docker-compose.yml"


def _services() -> dict[str, list[str]]:
    """Each service's name and its own lines (those indented below its key)."""
    services: dict[str, list[str]] = {}
    current: list[str] | None = None
    inside = False
    for line in COMPOSE.read_text().splitlines():
        if re.fullmatch(r"\S.*:", line):
            inside, current = line == "services:", None
        elif inside and (key := re.fullmatch(r"  ([a-z][a-z0-9_-]*):", line)):
            current = services.setdefault(key.group(1), [])
        elif current is not None:
            current.append(line)
    return services


def test_every_service_restarts_unless_stopped() -> None:
    services = _services()
    assert {"postgres", "redis", "api", "worker"} <= set(services), services.keys()
    for name, lines in services.items():
        assert "    restart: unless-stopped" in lines, f"service {name} has no restart policy"
