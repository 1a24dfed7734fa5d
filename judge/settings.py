"""All settings, read in one place from the environment (prefix JUDGE_) or a .env file."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Annotated

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

ROOT = Path(__file__).resolve().parent.parent


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="JUDGE_", env_file=".env", extra="ignore")

    problems_dir: Path = ROOT / "problems"
    data_dir: Path = ROOT / "data"
    # None: try a registry for python:3.11-slim, fall back to the offline debootstrap base.
    sandbox_offline: bool | None = None
    # The container runtime: runc, or runsc (gVisor) for a second wall at a cost in speed.
    sandbox_runtime: str = "runc"
    # Sandbox containers each worker process keeps created, started and waiting for one
    # submission (sandbox.warm_pool); 0 creates every container when its submission arrives.
    warm_pool_size: int = 2
    # Every worker process sweeps sandbox leftovers this often, judging or idle, and takes a
    # container still created, or stopped, this long after it was for one (sandbox.janitor).
    sandbox_sweep_seconds: float = 60.0
    sandbox_abandoned_seconds: float = 60.0

    # Empty means the embedded default under data_dir: SQLite, and (under `judge serve`) a private
    # redis-server on a Unix socket, or a broker on the file system where none is installed.
    database_url: str = ""
    broker_url: str = ""
    # Prepended to every Redis key and channel the broker uses: lets several judges (or test
    # runs) share one Redis without taking each other's messages.
    broker_key_prefix: str = ""
    db_pool_size: int = 10
    db_max_overflow: int = 10
    db_pool_timeout: float = 10.0

    host: str = "127.0.0.1"
    port: int = 8000
    max_code_bytes: int = 64 * 1024
    max_request_bytes: int = 25 * 1024 * 1024  # any request body, problem archives included
    learner_queue_quota: int = 5  # queued or running submissions per learner
    max_wait_seconds: float = 30.0  # cap on ?wait= when polling a submission
    # Waiting requests (?wait= and /events) one user may hold at once, in each API process.
    max_waits_per_user: int = 50
    # A submission's event stream (GET .../events) ends after this long even if not done, and
    # sends a comment this often so that proxies and clients know it is alive.
    max_stream_seconds: float = 300.0
    stream_keepalive_seconds: float = 15.0
    # A queued submission not claimed for this long is sent again (its message may be lost).
    requeue_after_seconds: float = 60.0
    lease_seconds: float = 30.0  # a judging worker renews its claim every third of this
    recovery_interval_seconds: float = 30.0
    internal_error_retries: int = 2
    # Off where the API has no Docker socket (compose): the worker's health check covers Docker.
    ready_needs_docker: bool = True
    # Workers run this much nicer than the API: it answers people, and the worker's own
    # orchestration can wait a few milliseconds (sandbox containers keep their own priority).
    worker_niceness: int = 5
    # The API's own priority, where the process may raise it (root or CAP_SYS_NICE): under load
    # the Docker engine, the database and the sandboxes all run at niceness 0, and an API thread
    # that holds the GIL while the kernel runs them instead stalls every answer (/healthz too).
    api_niceness: int = -10
    # Validating authors' drafts (judge.validation) happens in a worker of its own, on the
    # validation queue, so that it never takes a slot from a learner's judging: this many at
    # once, each version at most max_validation_seconds of wall clock in all (reference, public
    # and hidden tests, every wrong solution), and an upload at most max_wrong_solutions of them.
    validation_concurrency: int = 1
    max_validation_seconds: float = 300.0
    max_wrong_solutions: int = 20
    # Drafts of one owner's problems waiting for (or in) validation: the validation worker's
    # time is shared by every author, and each draft may take max_validation_seconds of it.
    author_validation_quota: int = 5
    heartbeat_interval_seconds: float = 10.0  # each worker writes its heartbeat this often
    ready_heartbeat_seconds: float = 30.0  # /readyz wants a worker heartbeat at most this old

    # Accounts (judge/service/accounts.py, web_sessions.py). A browser's sign-in lasts this long.
    session_days: float = 14.0
    # argon2id parameters (RFC 9106's second recommendation by default); a stored hash made with
    # other ones is replaced at its user's next sign-in.
    password_time_cost: int = 3
    password_memory_kib: int = 64 * 1024
    password_parallelism: int = 4
    # Every argon2 run of an API process goes through one pool (judge.service.password_hashing):
    # this many threads, each with a block of password_memory_kib, and at most this many requests
    # waiting for one; the next is a 429 `busy` at once. The threads run this much nicer than the
    # API's own, so that a flood of sign-ins never delays another route's answer. Keep workers +
    # queue below the database pool (db_pool_size + db_max_overflow): each such request takes a
    # connection for a few milliseconds before and after its check, and all may do so at once.
    password_hash_workers: Annotated[int, Field(ge=1, le=64)] = 2
    password_hash_queue: Annotated[int, Field(ge=0, le=1000)] = 16
    password_hash_niceness: Annotated[int, Field(ge=0, le=39)] = 10

    def resolved_database_url(self) -> str:
        return self.database_url or f"sqlite:///{self.data_dir / 'judge.db'}"

    def resolved_broker_url(self) -> str:
        return self.broker_url or "filesystem://"

    @property
    def broker_folder(self) -> Path:
        return self.data_dir / "broker"


@lru_cache
def get_settings() -> Settings:
    return Settings()
