"""Where the client finds the judge's URL and the learner's token: a small TOML file written by
``judge-client configure`` (mode 0600, since the token is a password), overridden by the
``JUDGE_CLIENT_URL`` and ``JUDGE_CLIENT_TOKEN`` environment variables (for CI and scripts)."""

from __future__ import annotations

import json
import os
import tempfile
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

URL_VARIABLE = "JUDGE_CLIENT_URL"
TOKEN_VARIABLE = "JUDGE_CLIENT_TOKEN"


class ConfigError(Exception):
    """The configuration cannot be read or written, or a value in it is not usable."""


@dataclass(frozen=True)
class Setting:
    """One value and where it came from ("file", "environment", or "" when unset)."""

    value: str
    source: str


@dataclass(frozen=True)
class Config:
    url: Setting
    token: Setting
    path: Path


def config_path(env: Mapping[str, str] | None = None) -> Path:
    """``$XDG_CONFIG_HOME/metrics-judge/client.toml``, ``~/.config/...`` when that is unset or
    empty (as the XDG base directory rules say)."""
    env = os.environ if env is None else env
    base = env.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "metrics-judge" / "client.toml"


def normalized_url(url: str) -> str:
    """The base URL without a trailing slash; only http and https make sense for an API."""
    url = url.strip()
    if not url.startswith(("http://", "https://")):
        raise ConfigError(f"the URL {url!r} must start with http:// or https:// "
                          "(for example http://localhost:8000)")
    url = url.rstrip("/")
    # The API's own prefix is the client's to add: given with it, every path would be doubled and
    # each 404 read as a wrong problem name.
    if url.lower().endswith("/api/v1"):
        raise ConfigError(f"the URL {url!r} ends in /api/v1: give the judge's base URL, "
                          f"{url[: -len('/api/v1')]!r}; the client adds /api/v1 itself")
    return url


def read_file(path: Path) -> dict[str, str]:
    """The file's url and token (what it holds of them); empty when there is no file."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"cannot read {path}: {exc}; fix it or write it again with "
                          "`judge-client configure --url URL --token TOKEN`") from exc
    return {key: value for key, value in data.items() if key in ("url", "token") and isinstance(value, str)}


def load(env: Mapping[str, str] | None = None) -> Config:
    """The file's values with the environment's on top."""
    env = os.environ if env is None else env
    path = config_path(env)
    stored = read_file(path)

    def pick(key: str, variable: str) -> Setting:
        if env.get(variable):
            return Setting(env[variable], "environment")
        if stored.get(key):
            return Setting(stored[key], "file")
        return Setting("", "")

    url = pick("url", URL_VARIABLE)
    if url.value:
        url = Setting(normalized_url(url.value), url.source)
    return Config(url, pick("token", TOKEN_VARIABLE), path)


def _toml_string(value: str) -> str:
    # JSON's escapes with ensure_ascii (\", \\, \n, \uXXXX) are all valid in a TOML basic string.
    return json.dumps(value, ensure_ascii=True)


def save(path: Path, url: str | None, token: str | None) -> dict[str, str]:
    """Update the file with what is given (the rest kept); return what it now holds.

    Written to a temporary file made 0600 from the start and renamed over the old one, so the
    token is never readable by others, not even for a moment, and a crash leaves the old file.
    """
    values = read_file(path)
    if url is not None:
        values["url"] = normalized_url(url)
    if token is not None:
        if not token.strip() or any(c.isspace() for c in token.strip()):
            raise ConfigError("the token must be one word without spaces (it starts with jt_)")
        values["token"] = token.strip()
    text = "".join(f"{key} = {_toml_string(values[key])}\n" for key in ("url", "token") if key in values)
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=".client-", suffix=".toml")
        try:
            with os.fdopen(descriptor, "w", encoding="utf-8") as sink:
                sink.write(text)
            os.chmod(temporary, 0o600)
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise ConfigError(f"cannot write {path}: {exc}") from exc
    return values


def masked(token: str) -> str:
    """Enough of a token to tell two apart, never enough to use one."""
    if len(token) < 16:
        return "*" * len(token)
    return f"{token[:3]}...{token[-4:]}"
