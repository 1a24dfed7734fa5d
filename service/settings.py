"""The service's settings: the data folder, the database, the broker, the API's limits, the
workers and the accounts, read in one place from the environment (prefix JUDGE_) or a .env file.
The engine's own (where the problems are, how the sandbox runs) are ``judge.engine_settings``'s, read
from the same variables.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal
from urllib.parse import quote

from pydantic import Field, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

from judge.engine_settings import ENV_FILE, PREFIX, ROOT


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix=PREFIX, env_file=ENV_FILE, extra="ignore")

    data_dir: Path = ROOT / "data"

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

    # The level of the workers' and the API server's own logs (DEBUG, INFO, WARNING, ...). Empty:
    # each command's default, INFO for `judge worker` and `judge api`, WARNING under `judge serve`
    # (whose terminal a person reads: its URL, each verdict, each error, each restart; `judge serve
    # --verbose` is INFO). Verdicts are logged whatever the level (service.jobs.VERDICTS).
    log_level: str = ""
    # text: lines for people; json: one JSON object a line, with the request id, for a log
    # collector (service.log_format). `judge serve`'s own lines to its terminal stay text.
    log_format: Literal["text", "json"] = "text"

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

    # Accounts (service/accounts.py, web_sessions.py). A browser's sign-in lasts this long.
    session_days: float = 14.0
    # argon2id parameters (RFC 9106's second recommendation by default); a stored hash made with
    # other ones is replaced at its user's next sign-in.
    password_time_cost: int = 3
    password_memory_kib: int = 64 * 1024
    password_parallelism: int = 4
    # Every argon2 run of an API process goes through one pool (service.password_hashing):
    # this many threads, each with a block of password_memory_kib, and at most this many requests
    # waiting for one; the next is a 429 `busy` at once. The threads run this much nicer than the
    # API's own, so that a flood of sign-ins never delays another route's answer. Keep workers +
    # queue below the database pool (db_pool_size + db_max_overflow): each such request takes a
    # connection for a few milliseconds before and after its check, and all may do so at once.
    password_hash_workers: Annotated[int, Field(ge=1, le=64)] = 2
    password_hash_queue: Annotated[int, Field(ge=0, le=1000)] = 16
    password_hash_niceness: Annotated[int, Field(ge=0, le=39)] = 10

    # Webhooks (service.webhooks): each submission's callback_url, posted by the webhook
    # worker. Private, loopback, link-local and other non-public addresses are refused unless
    # allowed (a receiver on the judge's own host or network, as in the tests); a URL is at
    # most this long; a user has at most this many deliveries waiting; each attempt may take
    # webhook_timeout_seconds in all; attempts wait webhook_backoff_seconds (the last repeats),
    # and a delivery gives up webhook_give_up_hours after it was written.
    webhook_allow_private: bool = False
    webhook_max_url_length: Annotated[int, Field(ge=20, le=2048)] = 2048
    webhook_max_pending_per_user: Annotated[int, Field(ge=1)] = 200  # a full batch and its own
    webhook_timeout_seconds: Annotated[float, Field(gt=0, le=60)] = 5.0
    webhook_backoff_seconds: tuple[float, ...] = (10, 30, 120, 600, 1800, 3600)
    webhook_give_up_hours: Annotated[float, Field(gt=0)] = 24.0
    # The webhook worker looks for deliveries that are due (retries, lost messages) this often.
    webhook_sweep_seconds: Annotated[float, Field(gt=0)] = 5.0
    # Attempts in flight at once, at most, for one user and to one host (service.webhooks.
    # inflight): a receiver that never answers holds that many of the webhook worker's threads,
    # never all of them; past a bound a delivery waits for a slot, its schedule untouched. The
    # threads must outnumber both bounds (`judge webhook-worker` refuses to start otherwise);
    # one waiting on a receiver costs next to nothing, so there are many.
    webhook_max_in_flight_per_user: Annotated[int, Field(ge=1)] = 2
    webhook_max_in_flight_per_host: Annotated[int, Field(ge=1)] = 2
    webhook_concurrency: Annotated[int, Field(ge=2, le=64)] = 16
    # Notification e-mails (service.notification_mail), sent by the webhook worker: none while
    # smtp_host is empty. With smtp_starttls the connection is upgraded (certificate checked)
    # before signing in with smtp_username; a user is sent at most max_emails_per_hour of them
    # (the rest stay on the pages), each attempt taking smtp_timeout_seconds at most; a failed
    # attempt is tried again after each wait of email_backoff_seconds in turn, then given up.
    smtp_host: str = ""
    smtp_port: Annotated[int, Field(ge=1, le=65535)] = 25
    smtp_from: str = "judge@localhost"
    smtp_username: str = ""
    smtp_password: str = ""
    smtp_starttls: bool = False
    smtp_timeout_seconds: Annotated[float, Field(gt=0, le=120)] = 10.0
    max_emails_per_hour: Annotated[int, Field(ge=0)] = 20
    email_backoff_seconds: tuple[float, ...] = (30, 300, 1800)
    # LTI 1.3 (service.lti). A platform's URLs must be https unless lti_allow_http (a lab, the
    # tests), and public addresses unless lti_allow_private (an LMS on the judge's own network);
    # a launch's times may be off by lti_clock_skew_seconds; a login must end in
    # lti_login_seconds; each call to a platform gives up after lti_http_timeout_seconds and reads
    # at most lti_max_response_bytes. A grade that could not be sent is tried again after each of
    # lti_score_backoff_seconds in turn, then given up (the instructor may send it again). A roster
    # pull reads at most lti_max_roster members. lti_frame_ancestors: origins, space-separated, that
    # may frame the pages besides the registered platforms' own.
    lti_allow_http: bool = False
    lti_allow_private: bool = False  # a platform (or a URL a launch names) on a non-public address
    lti_clock_skew_seconds: Annotated[float, Field(ge=0, le=600)] = 60.0
    lti_login_seconds: Annotated[float, Field(gt=0, le=3600)] = 600.0
    lti_http_timeout_seconds: Annotated[float, Field(gt=0, le=60)] = 10.0
    lti_max_response_bytes: Annotated[int, Field(ge=1024)] = 2 * 1024 * 1024
    lti_score_backoff_seconds: tuple[float, ...] = (10, 60, 300, 1800, 3600)
    lti_max_roster: Annotated[int, Field(ge=1)] = 5000
    lti_frame_ancestors: str = ""
    # Where the judge is reached from outside, for the link in a webhook's body (e.g.
    # https://judge.example.org); empty: the link is the path alone. An https address also
    # makes session cookies Secure whatever scheme a request arrived with.
    public_url: str = ""
    # The reverse proxies whose X-Forwarded-For and X-Forwarded-Proto the API believes (uvicorn's
    # forwarded_allow_ips): addresses or networks, comma-separated, or * for any peer. A client's
    # address (the sign-in limit counts per address) and https (Secure cookies) come from those
    # headers only on a connection from one of these; from anyone else they are ignored.
    forwarded_allow_ips: str = "127.0.0.1"

    # A worker serves its metrics on this port (http://HOST:PORT/metrics) for a Prometheus that
    # scrapes every worker container (deploy/prometheus/); None: only the API's /metrics.
    metrics_port: Annotated[int, Field(ge=1, le=65535)] | None = None
    # Passwords kept out of the URLs and the environment (compose's secrets): a file holding the
    # database's password, put into JUDGE_DATABASE_URL, and one holding Redis's, put into
    # JUDGE_BROKER_URL. A file that is missing, empty or holds a well-known default stops the
    # service at start (``SettingsError``): a stack never runs on a password someone can guess.
    database_password_file: Path | None = None
    broker_password_file: Path | None = None

    def resolved_database_url(self) -> str:
        url = self.database_url or f"sqlite:///{self.data_dir / 'judge.db'}"
        if self.database_password_file is None:
            return url
        from sqlalchemy import make_url

        secret = read_secret(self.database_password_file, "JUDGE_DATABASE_PASSWORD_FILE")
        return make_url(url).set(password=secret).render_as_string(hide_password=False)

    def resolved_broker_url(self) -> str:
        url = self.broker_url or "filesystem://"
        if self.broker_password_file is None:
            return url
        scheme, separator, rest = url.partition("://")
        secret = read_secret(self.broker_password_file, "JUDGE_BROKER_PASSWORD_FILE")
        return f"{scheme}{separator}:{quote(secret, safe='')}@{rest.rpartition('@')[2]}"

    @property
    def broker_folder(self) -> Path:
        return self.data_dir / "broker"


class SettingsError(ValueError):
    """A JUDGE_ variable (or a line of the .env file) whose value does not fit; names it."""


# Passwords shipped in examples and guessed first: a secret file holding one is refused.
DEFAULT_PASSWORDS = frozenset({"", "judge", "password", "postgres", "redis", "secret", "changeme",
                               "change-me", "admin"})


def read_secret(path: Path, name: str) -> str:
    """The first line of a secret file; SettingsError when it is unreadable or guessable."""
    try:
        secret = path.read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise SettingsError(f"{name} is {str(path)!r}: cannot read it ({exc.strerror})") from None
    if secret.lower() in DEFAULT_PASSWORDS or len(secret) < 12:
        raise SettingsError(f"{name} is {str(path)!r}: it holds an empty, short (under 12 characters) or "
                            "default password; make a random one (scripts/stack-secrets)")
    return secret


@lru_cache
def get_settings() -> Settings:
    try:
        settings = Settings()
    except ValidationError as exc:
        raise SettingsError(_describe(exc)) from None
    settings.resolved_database_url()  # the secret files readable, and no default password
    settings.resolved_broker_url()
    return settings


def _describe(exc: ValidationError) -> str:
    """``JUDGE_PORT is 'abc': input should be a valid integer``, for each value that does not fit
    (worded as the engine's settings are, judge.engine_settings)."""
    return "; ".join(
        f"{PREFIX}{'_'.join(map(str, error['loc'])).upper()} is {str(error.get('input'))[:80]!r}: "
        f"{error['msg'][:1].lower()}{error['msg'][1:]}" for error in exc.errors())
