"""The settings a production stack gives: passwords from secret files (refused when missing,
short or guessable, saying which variable), put into the URLs whatever characters they hold; and
a rediss:// broker's TLS options, which kombu reads only from Celery's broker_use_ssl."""

from __future__ import annotations

import ssl
from pathlib import Path

import pytest
import redis
from sqlalchemy import make_url

from service.celery_app import broker_tls
from service.settings import Settings, SettingsError, read_secret


def secret(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "secret"
    path.write_text(text + "\n", encoding="utf-8")
    return path


def test_passwords_go_into_the_urls_quoted(tmp_path: Path) -> None:
    words = "s3cret/@:?#%with spaces"
    settings = Settings(database_url="postgresql+psycopg://judge@db:5432/judge?sslmode=verify-full",
                        database_password_file=secret(tmp_path, words),
                        broker_url="rediss://redis:6380/0?ssl_cert_reqs=required&ssl_ca_certs=/run/ca.pem",
                        broker_password_file=secret(tmp_path, words))
    database = make_url(settings.resolved_database_url())
    assert (database.password, database.host, database.query["sslmode"]) == (words, "db", "verify-full")
    broker = redis.connection.parse_url(settings.resolved_broker_url())
    assert (broker["password"], broker["host"], broker["port"]) == (words, "redis", 6380)
    assert broker["ssl_ca_certs"] == "/run/ca.pem"


@pytest.mark.parametrize("text", ["", "judge", "Password", "changeme", "short-pw"])
def test_a_guessable_secret_is_refused_naming_the_variable(tmp_path: Path, text: str) -> None:
    with pytest.raises(SettingsError, match=r"^JUDGE_DATABASE_PASSWORD_FILE is .*default password"):
        read_secret(secret(tmp_path, text), "JUDGE_DATABASE_PASSWORD_FILE")


def test_a_missing_secret_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match=r"^JUDGE_BROKER_PASSWORD_FILE is .*cannot read it"):
        read_secret(tmp_path / "none", "JUDGE_BROKER_PASSWORD_FILE")


def test_a_rediss_broker_checks_the_servers_certificate() -> None:
    assert broker_tls("redis://redis:6379/0") is None
    assert broker_tls("rediss://:pw@redis:6380/0?ssl_ca_certs=/run/ca.pem") == {
        "ssl_cert_reqs": ssl.CERT_REQUIRED, "ssl_ca_certs": "/run/ca.pem"}
    assert broker_tls("rediss://redis:6380/0?ssl_cert_reqs=none")["ssl_cert_reqs"] == ssl.CERT_NONE  # type: ignore[index]
