"""`judge serve`, `judge worker` and `judge users`: the service's command line."""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
from typing import Annotated

import typer
from rich.console import Console

from judge.bootstrap import first_admin_token, prepare_database
from judge.celery_app import QUEUES
from judge.db.models import Role
from judge.db.session import session_scope
from judge.settings import get_settings
from judge.users import UserError, create_user

PR_SET_PDEATHSIG = 1  # from <sys/prctl.h>

users_app = typer.Typer(help="Manage users and their API tokens.", no_args_is_help=True)
out = Console()
err = Console(stderr=True)


def _die_with_parent() -> None:
    """Runs in the worker child before exec: the kernel sends it SIGTERM when `judge serve` ends,
    however it ends (uvicorn re-raises SIGTERM after shutting down, skipping any finally)."""
    libc = ctypes.CDLL("libc.so.6", use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def worker_command(concurrency: int) -> list[str]:
    # -B runs the beat that re-queues lost submissions inside the worker; the recovery task is
    # idempotent, so several workers each running a beat do no harm.
    return [sys.executable, "-m", "celery", "-A", "judge.celery_app", "worker", "-B",
            "-Q", ",".join(QUEUES), "--concurrency", str(concurrency), "--loglevel", "INFO"]


@users_app.command("create")
def create(
    name: str,
    role: Annotated[Role, typer.Option(help="learner, instructor or admin")] = Role.LEARNER,
) -> None:
    """Create a user and print a new API token (shown only this once)."""
    from judge.cli import fail

    prepare_database()
    try:
        with session_scope() as session:
            _, token = create_user(session, name, role)
    except UserError as exc:
        raise fail(str(exc)) from exc
    print(token)


def worker(concurrency: Annotated[int, typer.Option(help="parallel submissions")] = 2) -> None:
    """Run a Celery worker (with the recovery beat) that judges in the Docker sandbox."""
    from judge.cli import open_sandbox

    prepare_database()
    open_sandbox()  # build the image before taking work, so the first submission doesn't wait
    os.execv(sys.executable, worker_command(concurrency))


def serve(
    host: Annotated[str | None, typer.Option(help="address to listen on")] = None,
    port: Annotated[int | None, typer.Option(help="port to listen on")] = None,
    concurrency: Annotated[int, typer.Option(help="parallel submissions")] = 2,
) -> None:
    """Start the whole service on one machine: database, problems, sandbox, a worker and the API."""
    import uvicorn

    from judge.cli import open_sandbox

    settings = get_settings()
    host, port = host or settings.host, port or settings.port
    changes = prepare_database()
    for change in changes:
        err.print(f"problems: {change}", highlight=False)
    open_sandbox()
    token = first_admin_token()
    process = subprocess.Popen(worker_command(concurrency), preexec_fn=_die_with_parent)
    try:
        url = f"http://{host}:{port}"
        out.print(f"[bold green]Judge running[/] at {url}  (API docs: {url}/docs)")
        out.print(f"database: {settings.resolved_database_url()}   broker: "
                  f"{settings.resolved_broker_url()}", highlight=False)
        if token:
            out.print(f"[bold]Admin token[/] (shown once; keep it): {token}", highlight=False,
                      soft_wrap=True)
        uvicorn.run("api.main:app", host=host, port=port, log_level="info")
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
