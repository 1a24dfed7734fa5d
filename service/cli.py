"""The whole `judge` command: the engine's commands plus `serve`, `worker` and `users`.

This is the installed entry point. The engine's own command line (``judge.engine_commands``)
stays free of the service, so ``python -m judge.engine_commands`` works without a database or a
queue.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from judge.engine_commands import app
from service.roles import Role

# The service (Celery, SQLAlchemy, the accounts, Docker) is imported by the commands that use
# it, so that the engine's commands (`judge run`, `judge problems ...`) start without it.
if TYPE_CHECKING:
    from service.settings import Settings

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
WORKER_STOP_SECONDS = 20.0  # a warm shutdown lets running submissions finish for this long

users_app = typer.Typer(help="Manage users and their API tokens.", no_args_is_help=True)
lti_app = typer.Typer(help="LTI 1.3: the judge's signing keys, the registered platforms.",
                      no_args_is_help=True)
out = Console()
err = Console(stderr=True)


def log_level(default: str) -> str:
    """JUDGE_LOG_LEVEL, or ``default`` where it is empty, as Celery and uvicorn take it (INFO)."""
    from judge.engine_commands import fail
    from service.settings import get_settings

    level = (get_settings().log_level or default).strip().upper()
    if level not in logging.getLevelNamesMapping() or level == "NOTSET":
        raise fail(f"JUDGE_LOG_LEVEL={level!r} is not a level (DEBUG, INFO, WARNING, ERROR, CRITICAL)")
    return level


def _celery(level: str) -> list[str]:
    # Celery prints its banner (config, queues, tasks) at every start unless -q: shown only when
    # its INFO lines are, since it says nothing a person needs to start judging.
    quiet = ["-q"] if logging.getLevelNamesMapping()[level] > logging.INFO else []
    return [sys.executable, "-m", "celery", "-A", "service.celery_app", *quiet, "worker"]


def worker_command(concurrency: int, level: str = "INFO") -> list[str]:
    from service.celery_app import QUEUES

    # -B runs the beat that re-queues lost submissions inside the worker; the recovery task is
    # idempotent, so several workers each running a beat do no harm.
    return [*_celery(level), "-B", "-Q", ",".join(QUEUES), "--concurrency", str(concurrency),
            "--loglevel", level]


def validation_worker_command(concurrency: int, level: str = "INFO") -> list[str]:
    from service.celery_app import VALIDATION_QUEUE
    from service.heartbeats import VALIDATION_NODE

    # Only the validation queue, so that authoring never holds a slot that judges learners (the
    # judging worker's -Q leaves it out). No beat: the judging worker runs recovery. A node name
    # of its own, so that both kinds of worker can share a host.
    return [*_celery(level), "-Q", VALIDATION_QUEUE, "-n", f"{VALIDATION_NODE}@%h",
            "--concurrency", str(concurrency), "--loglevel", level]


def webhook_worker_command(concurrency: int, level: str = "INFO") -> list[str]:
    from judge.engine_commands import fail
    from service.celery_app import WEBHOOK_QUEUE
    from service.heartbeats import WEBHOOK_NODE
    from service.webhooks.inflight import Bounds, too_few_threads

    # With no more threads than one user's (or host's) bound, one stalled receiver holds them all.
    problem = too_few_threads(concurrency, Bounds.from_settings())
    if problem:
        raise fail(problem)
    # Only the webhooks queue, in threads: a delivery waits on a receiver's network (5 s at
    # most), so threads of one process serve many at once, and a slow receiver never holds a
    # slot that judges or validates. Its own node name starts its sweep of due deliveries.
    return [*_celery(level), "-Q", WEBHOOK_QUEUE, "-n", f"{WEBHOOK_NODE}@%h", "--pool", "threads",
            "--concurrency", str(concurrency), "--loglevel", level]


def _password_from_stdin() -> str:
    """One line of standard input, without its line end: `printf %s "$PW" | judge users ...`
    keeps the password out of the process list and the shell's history."""
    from judge.engine_commands import fail

    password = sys.stdin.readline().rstrip("\r\n")
    if not password:
        raise fail("--password-stdin: standard input held no password")
    return password


PasswordStdin = Annotated[bool, typer.Option(
    "--password-stdin", help="read a password (10 to 200 characters) from the first line of stdin")]


@users_app.command("create")
def create(
    name: str,
    role: Annotated[Role, typer.Option(help="learner, instructor or admin")] = Role.LEARNER,
    password_stdin: PasswordStdin = False,
) -> None:
    """Create a user and print a new API token (shown only this once); with --password-stdin the
    user can also sign in to the pages."""
    from judge.engine_commands import fail
    from judge.errors import DomainError
    from service.db.session import session_scope
    from service.users import create_user

    password = _password_from_stdin() if password_stdin else None
    prepared_database()
    try:
        with session_scope() as session:
            _, token = create_user(session, name, role, password)
    except DomainError as exc:
        raise fail(str(exc)) from exc
    print(token)


@users_app.command("set-password")
def set_password_command(name: str, password_stdin: PasswordStdin = False) -> None:
    """Set a user's password (their browser sessions end)."""
    from judge.engine_commands import fail
    from judge.errors import DomainError
    from service.accounts import set_password
    from service.db.session import session_scope
    from service.users import user_named

    if not password_stdin:
        raise fail("give the password on standard input with --password-stdin (never as an argument)")
    password = _password_from_stdin()
    prepared_database()
    try:
        with session_scope() as session:
            set_password(session, user_named(session, name), password)
    except DomainError as exc:
        raise fail(str(exc)) from exc
    err.print(f"password of {name.strip()!r} set", highlight=False)


BackupFile = Annotated[Path, typer.Argument(metavar="FILE", help="the backup file (gzip'd JSON lines)")]


def backup(file: BackupFile) -> None:
    """Write every row of the judge's database (JUDGE_DATABASE_URL, or the embedded SQLite) to
    FILE, a consistent snapshot taken while the judge goes on working (docs/production.md)."""
    from judge.engine_commands import fail
    from judge.errors import DomainError
    from service import backups
    from service.db.session import get_engine

    try:
        summary = backups.backup(get_engine(), file)
    except (DomainError, OSError) as exc:
        raise fail(str(exc)) from exc
    # soft_wrap: one line whatever the terminal's width, so a long path is never broken.
    err.print(f"backed up {sum(summary.rows.values())} rows of {len(summary.rows)} tables (schema "
              f"{summary.revision}) to {file}", highlight=False, soft_wrap=True)


def restore(file: BackupFile) -> None:
    """Load FILE, made by `judge backup`, into a new, empty database (JUDGE_DATABASE_URL, or the
    embedded SQLite): migrated first, refused unless empty and at the file's schema revision;
    all or nothing."""
    from judge.engine_commands import fail
    from judge.errors import DomainError
    from service import backups
    from service.db.migrate import upgrade
    from service.db.session import get_engine

    if not file.is_file():
        raise fail(f"{file}: no such file")
    try:
        upgrade()
        summary = backups.restore(get_engine(), file)
    except DomainError as exc:
        raise fail(str(exc)) from exc
    err.print(f"restored {sum(summary.rows.values())} rows of {len(summary.rows)} tables (schema "
              f"{summary.revision}) from {file}", highlight=False, soft_wrap=True)


def prepared_database() -> list[str]:
    """``prepare_database``, with a database a newer judge migrated refused in one line."""
    from judge.engine_commands import fail
    from service.bootstrap import prepare_database
    from service.db.migrate import NewerSchema

    try:
        return prepare_database()
    except NewerSchema as exc:
        raise fail(str(exc)) from exc


def wait_for_the_engine() -> None:
    """A worker started before its Docker engine answers (a host booting, an engine restarting)
    waits for it instead of exiting, and takes work once it answers."""
    from sandbox.docker_runner import engine_answers, wait_for_engine

    if engine_answers():
        return
    where = os.environ.get("DOCKER_HOST") or "the local socket"
    err.print(f"waiting for the Docker engine at {where} (asking once a second)", highlight=False)
    wait_for_engine(None)
    err.print("the Docker engine answers", highlight=False)


def worker(concurrency: Annotated[int, typer.Option(help="parallel submissions")] = 2) -> None:
    """Run a Celery worker (with the recovery beat) that judges in the Docker sandbox; started
    before the Docker engine answers, it waits for it."""
    from judge.engine_commands import open_sandbox

    prepared_database()
    wait_for_the_engine()
    open_sandbox()  # build the image before taking work, so the first submission doesn't wait
    os.execv(sys.executable, worker_command(concurrency, log_level("INFO")))


def validation_worker(concurrency: Annotated[int | None, typer.Option(
        help="parallel validations (default JUDGE_VALIDATION_CONCURRENCY)")] = None) -> None:
    """Run a Celery worker that validates authors' drafts in the Docker sandbox, apart from the
    worker that judges learners."""
    from judge.engine_commands import open_sandbox
    from service.settings import get_settings

    prepared_database()
    wait_for_the_engine()
    open_sandbox()
    os.execv(sys.executable, validation_worker_command(
        concurrency or get_settings().validation_concurrency, log_level("INFO")))


def webhook_worker(concurrency: Annotated[int | None, typer.Option(
        help="deliveries at once (default JUDGE_WEBHOOK_CONCURRENCY)")] = None) -> None:
    """Run a Celery worker that posts webhooks (submissions' callback URLs); it needs the
    database and the broker, never Docker."""
    from service.db.migrate import upgrade
    from service.settings import get_settings

    upgrade()
    os.execv(sys.executable, webhook_worker_command(
        concurrency or get_settings().webhook_concurrency, log_level("INFO")))


class _Stop(Exception):
    """SIGINT or SIGTERM asked `judge serve` to stop."""


def _raise_stop(signum: int, _: FrameType | None) -> None:
    # uvicorn handles these signals while it runs, then restores this handler and raises the
    # signal again once it has shut down: either way `serve` unwinds to its clean-up.
    raise _Stop(signal.Signals(signum).name)


def say(message: str) -> None:
    err.print(f"[yellow]judge serve:[/] {message}", highlight=False, soft_wrap=True)


def _count_changes(changes: list[str]) -> str:
    """``24 added, 1 changed`` from lines such as ``added two_sum 6a53...`` (their first word)."""
    counts: dict[str, int] = {}
    for change in changes:
        kind = change.split(" ", 1)[0]
        counts[kind] = counts.get(kind, 0) + 1
    return ", ".join(f"{count} {kind}" for kind, count in counts.items())


def _private_broker(settings: Settings, stops: list[Callable[[], object]]) -> str:
    """Start the embedded default's broker and point this process and its worker at it."""
    from service.celery_app import use_broker
    from service.private_redis import PrivateRedis, redis_binary

    binary = redis_binary()
    if binary is None:
        say("[bold]warning:[/] no redis-server installed, so the broker is kombu's file-system "
            "transport, which can lose or choke on messages when many clients submit at once. "
            "Install redis-server (Debian: apt-get install redis-server) or set JUDGE_BROKER_URL.")
        return settings.resolved_broker_url()
    broker = PrivateRedis(binary, settings.data_dir, say)
    stops.append(broker.stop)  # before start: a signal may come while it starts
    try:
        broker.start()
    except RuntimeError as exc:
        from judge.engine_commands import fail

        raise fail(str(exc)) from exc
    use_broker(broker.url)
    return f"{broker.url} (a private redis-server)"


def serve(
    host: Annotated[str | None, typer.Option(help="address to listen on")] = None,
    port: Annotated[int | None, typer.Option(help="port to listen on")] = None,
    concurrency: Annotated[int, typer.Option(help="parallel submissions")] = 2,
    verbose: Annotated[bool, typer.Option(
        "--verbose", "-v", help="show every INFO log too (as JUDGE_LOG_LEVEL=INFO does)")] = False,
) -> None:
    """Start the whole service on one machine: database, problems, sandbox, a broker, a worker
    that judges, a worker that validates drafts, a worker that posts webhooks, and the API. The
    broker and the workers are started again if they die; SIGINT or SIGTERM stops everything.
    The terminal shows the URL, the first admin's token, a line per verdict, errors and restarts
    (--verbose: everything)."""
    from judge.engine_commands import open_sandbox
    from service import http_server, metrics
    from service.bootstrap import first_admin_token
    from service.settings import get_settings
    from service.supervision import Supervised

    previous = {sig: signal.signal(sig, _raise_stop) for sig in STOP_SIGNALS}
    stops: list[Callable[[], object]] = []  # in start order; run in reverse
    hurry = threading.Event()
    try:
        # Before the workers start: they inherit the folder, so this API and they share one.
        metrics.start()
        settings = get_settings()
        broker = (_private_broker(settings, stops) if not settings.broker_url
                  else settings.resolved_broker_url())
        settings = get_settings()
        level = "INFO" if verbose else log_level("WARNING")
        detailed = logging.getLevelNamesMapping()[level] <= logging.INFO
        host, port = host or settings.host, port or settings.port
        changes = prepared_database()
        # A problem folder that could not be loaded is an error, always shown; the folders that
        # were loaded are counted unless detailed.
        quiet = [c for c in changes if not detailed and not c.startswith("skipped ")]
        for change in changes:
            if change not in quiet:
                err.print(f"problems: {change}", highlight=False)
        if quiet:
            err.print(f"problems: {_count_changes(quiet)} (--verbose lists them)", highlight=False)
        open_sandbox()
        token = first_admin_token()
        worker = Supervised("worker", worker_command(concurrency, level), say)
        stops.append(lambda: worker.stop(WORKER_STOP_SECONDS, hurry))
        worker.start()
        validator = Supervised("validation worker",
                               validation_worker_command(settings.validation_concurrency, level), say)
        stops.append(lambda: validator.stop(WORKER_STOP_SECONDS, hurry))
        validator.start()
        poster = Supervised("webhook worker",
                            webhook_worker_command(settings.webhook_concurrency, level), say)
        stops.append(lambda: poster.stop(WORKER_STOP_SECONDS, hurry))
        poster.start()
        url = f"http://{host}:{port}"
        out.print(f"[bold green]Judge running[/] at {url}  (API docs: {url}/docs)")
        out.print(f"database: {settings.resolved_database_url()}   broker: {broker}", highlight=False,
                  soft_wrap=True)
        if token:
            out.print(f"[bold]Admin token[/] (shown once; keep it): {token}", highlight=False,
                      soft_wrap=True)
        http_server.run(host, port, level)
    except _Stop as stop:
        say(f"{stop}: stopping")
    finally:
        for sig in STOP_SIGNALS:  # a second Ctrl-C kills the children instead of waiting
            signal.signal(sig, lambda *_: hurry.set())
        for stop_child in reversed(stops):
            stop_child()
        for sig, handler in previous.items():
            signal.signal(sig, handler)


SERVICE_COMMANDS = {"serve", "api", "worker", "validation-worker", "webhook-worker", "users", "backup",
                    "restore", "lti"}


@app.callback()
def _settings_fit(context: typer.Context) -> None:
    # Before a service command: a JUDGE_ value that does not fit ends it with one line naming
    # the variable, not with pydantic's traceback from wherever the settings were first read.
    # The engine's commands read only the engine's settings (and import nothing of the service).
    if context.invoked_subcommand not in SERVICE_COMMANDS:
        return
    from judge.engine_commands import fail
    from service.settings import SettingsError, get_settings

    try:
        get_settings()
    except SettingsError as exc:
        raise fail(str(exc)) from exc


app.add_typer(users_app, name="users")
app.add_typer(lti_app, name="lti")


@lti_app.command("rotate-keys")
def rotate_keys() -> None:
    """Retire the key that signs: the one published ahead of its turn signs from now on, and a new
    one is published to follow it (platforms that cached the key set meet no unknown key)."""
    from service.db.session import session_scope
    from service.lti import keys

    prepared_database()
    with session_scope() as session:
        signing, waiting = keys.rotate(session)
    print(f"signing with key {signing}; key {waiting} published for the next rotation")


@lti_app.command("platforms")
def list_platforms() -> None:
    """The registered platforms, one a line: id, name, issuer, client id, deployment ids."""
    from service.db.session import session_scope
    from service.lti import platforms

    prepared_database()
    with session_scope() as session:
        for p in platforms.listing(session):
            fields = [str(p.id), p.name, p.issuer, p.client_id, ",".join(p.deployment_ids) or "(none)"]
            # A platform's values reach a terminal: nothing in them may move the cursor or recolour it.
            print("\t".join("".join(ch if ch.isprintable() else "?" for ch in f) for f in fields))
def api(
    host: Annotated[str | None, typer.Option(help="address to listen on")] = None,
    port: Annotated[int | None, typer.Option(help="port to listen on")] = None,
    forwarded_allow_ips: Annotated[str | None, typer.Option(
        help="proxies whose X-Forwarded-For/-Proto count: addresses or networks, comma-separated, "
             "or * (default JUDGE_FORWARDED_ALLOW_IPS, 127.0.0.1)")] = None,
) -> None:
    """Serve the API alone, as production's API container does (workers and broker run apart);
    it migrates the database as it starts."""
    from service import http_server
    from service.settings import get_settings

    settings = get_settings()
    http_server.run(host or settings.host, port or settings.port, log_level("INFO"), forwarded_allow_ips)


app.command()(serve)
app.command()(api)
app.command()(worker)
app.command("validation-worker")(validation_worker)
app.command("webhook-worker")(webhook_worker)
app.command()(backup)
app.command()(restore)

if __name__ == "__main__":
    app()
