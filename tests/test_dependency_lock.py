"""The dependency lock files agree with pyproject.toml and with the environment the tests run in.

requirements/runtime.lock (what the service image installs) and requirements/dev.lock (what
scripts/setup installs) are made by scripts/lock and installed with ``pip install
--require-hashes``. These tests catch the ways they drift: a dependency added to or tightened in
pyproject.toml without re-running scripts/lock, an entry without a pin or a hash (which pip's
hash-checking mode would refuse), the two files pinning one package differently, and a virtualenv
that no longer holds the lock's releases.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
RUNTIME_LOCK = ROOT / "requirements" / "runtime.lock"
DEV_LOCK = ROOT / "requirements" / "dev.lock"
HASH = re.compile(r"--hash=sha256:([0-9a-f]{64})$")


@dataclass(frozen=True)
class Pin:
    name: str
    version: str
    marker: Marker | None
    hashes: frozenset[str]


def parse_lock(text: str) -> dict[str, Pin]:
    """The entries of a lock file in pip's requirements format, by canonical name; anything that is
    not ``name==version [; marker]`` followed by sha256 hashes is an error."""
    pins: dict[str, Pin] = {}
    for entry in text.replace("\\\n", " ").splitlines():
        entry = entry.split("#", 1)[0].strip()
        if not entry:
            continue
        words = entry.split()
        options = [word for word in words if word.startswith("--")]
        requirement = Requirement(" ".join(word for word in words if not word.startswith("--")))
        specifiers = list(requirement.specifier)
        assert len(specifiers) == 1 and specifiers[0].operator == "==", f"not pinned: {entry!r}"
        assert not requirement.extras and requirement.url is None, f"not a plain pin: {entry!r}"
        hashes = set()
        for option in options:
            found = HASH.match(option)
            assert found, f"{requirement.name}: not a sha256 hash option: {option!r}"
            hashes.add(found.group(1))
        assert hashes, f"{requirement.name}: no --hash, so pip --require-hashes refuses the file"
        name = canonicalize_name(requirement.name)
        assert name not in pins, f"{name} is listed twice"
        pins[name] = Pin(name, specifiers[0].version, requirement.marker, frozenset(hashes))
    return pins


def project() -> dict[str, list[Requirement]]:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        config = tomllib.load(handle)["project"]
    return {"runtime": [Requirement(text) for text in config["dependencies"]],
            "dev": [Requirement(text) for text in config["optional-dependencies"]["dev"]]}


def assert_locked(requirements: list[Requirement], pins: dict[str, Pin], lock: Path) -> None:
    for requirement in requirements:
        pin = pins.get(canonicalize_name(requirement.name))
        assert pin is not None, f"{requirement} is in pyproject.toml but not in {lock.name}: run scripts/lock"
        assert requirement.specifier.contains(pin.version, prereleases=True), (
            f"{lock.name} pins {pin.name}=={pin.version}, outside pyproject's {requirement}: run scripts/lock")


@pytest.fixture(scope="module")
def runtime() -> dict[str, Pin]:
    return parse_lock(RUNTIME_LOCK.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def dev() -> dict[str, Pin]:
    return parse_lock(DEV_LOCK.read_text(encoding="utf-8"))


def test_every_runtime_dependency_is_pinned_within_its_range_in_both_locks(
        runtime: dict[str, Pin], dev: dict[str, Pin]) -> None:
    assert_locked(project()["runtime"], runtime, RUNTIME_LOCK)
    assert_locked(project()["runtime"], dev, DEV_LOCK)


def test_every_dev_dependency_is_pinned_within_its_range_in_the_dev_lock(dev: dict[str, Pin]) -> None:
    assert_locked(project()["dev"], dev, DEV_LOCK)


def test_the_dev_lock_holds_the_runtime_lock_unchanged(runtime: dict[str, Pin], dev: dict[str, Pin]) -> None:
    """The image and the tests' virtualenv run the same releases of what they share. (Markers may
    differ: colorama is Windows-only for the runtime, but a dev dependency wants it everywhere.)"""
    differing = sorted(name for name, pin in runtime.items()
                       if name not in dev or (dev[name].version, dev[name].hashes) != (pin.version, pin.hashes))
    assert not differing, f"dev.lock differs from runtime.lock on {differing}: run scripts/lock"


def test_the_locks_are_closed_under_the_installed_dependencies(runtime: dict[str, Pin], dev: dict[str, Pin]) -> None:
    """Everything a locked package needs here (its extras' needs included, as in celery[redis]) is
    locked too: pip --require-hashes refuses to install a requirement the file does not pin."""
    for requirements, pins, lock in ((project()["runtime"], runtime, RUNTIME_LOCK),
                                     ([*project()["runtime"], *project()["dev"]], dev, DEV_LOCK)):
        pending = [(canonicalize_name(r.name), frozenset(r.extras)) for r in requirements]
        seen: set[tuple[str, frozenset[str]]] = set()
        while pending:
            name, extras = pending.pop()
            if (name, extras) in seen:
                continue
            seen.add((name, extras))
            assert name in pins, f"{name} is needed but not in {lock.name}: run scripts/lock"
            for text in metadata.requires(name) or []:
                needed = Requirement(text)
                marker = needed.marker
                if marker is None or any(marker.evaluate({"extra": extra}) for extra in extras or {""}):
                    pending.append((canonicalize_name(needed.name), frozenset(needed.extras)))


def test_this_virtualenv_holds_the_dev_locks_releases(dev: dict[str, Pin]) -> None:
    """scripts/setup installed the lock: a stale virtualenv would test other releases than CI."""
    wrong = {}
    for pin in dev.values():
        if pin.marker is not None and not pin.marker.evaluate():
            continue
        try:
            installed = metadata.version(pin.name)
        except metadata.PackageNotFoundError:
            installed = "absent"
        if installed != pin.version:
            wrong[pin.name] = f"locked {pin.version}, installed {installed}"
    assert not wrong, f"the virtualenv is not the lock's (run scripts/setup): {wrong}"


def test_the_parser_rejects_what_pip_require_hashes_would() -> None:
    digest = "0" * 64
    assert parse_lock(f"rich==15.0.0 \\\n    --hash=sha256:{digest}\n    # via typer\n")["rich"].version == "15.0.0"
    for broken in (f"rich>=15 --hash=sha256:{digest}", "rich==15.0.0", f"rich==15.0.0 --hash=md5:{digest[:32]}",
                   f"rich==15.0.0 --hash=sha256:{digest}\nRich==15.0.1 --hash=sha256:{digest}"):
        with pytest.raises(AssertionError):
            parse_lock(broken)
