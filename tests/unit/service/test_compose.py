"""docker-compose.yml: every service comes back by itself after it exits (a crash, a reboot, an
engine restart), until it is stopped on purpose; each has memory and process limits; no password
is in the file; only the proxy is reachable from outside (PostgreSQL and Redis, for worker
hosts, only on the address the operator names). tests/deploy/test_compose_stack.py runs
it. Read as text: the project needs no YAML parser,
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


def test_every_service_has_memory_and_process_limits() -> None:
    for name, lines in _services().items():
        assert any(re.fullmatch(r"    mem_limit: \d+[mg]", line) for line in lines), f"{name}: no mem_limit"
        assert any(re.fullmatch(r"    pids_limit: \d+", line) for line in lines), f"{name}: no pids_limit"


def test_no_password_is_written_in_the_file_and_only_the_proxy_is_published() -> None:
    text = COMPOSE.read_text()
    assert "judge:judge@" not in text and "POSTGRES_PASSWORD:" not in text
    assert "requirepass" not in text  # Redis reads its password from its secret, not a command line
    services = _services()
    for name, lines in services.items():
        ports = [line for line in lines if line.startswith("      - \"") and line.count(":") >= 2]
        if name == "prometheus":
            assert ports == ['      - "127.0.0.1:${STACK_PROMETHEUS_PORT:-9090}:9090"']
        elif name in ("postgres", "redis"):  # for worker hosts, over TLS, on STACK_BIND (this host by default)
            assert len(ports) == 1 and ports[0].startswith('      - "${STACK_BIND:-127.0.0.1}:'), (name, ports)
        else:
            assert bool(ports) == (name == "proxy"), f"{name} publishes a port"
    for name in ("api", "worker", "validation-worker", "webhook-worker"):
        assert "    secrets: *judge-secrets" in services[name], name
