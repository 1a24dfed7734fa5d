"""The engine's settings: read from JUDGE_ variables and a .env file the way the service's
pydantic settings read theirs, with a clear refusal of a value that does not fit."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from judge import engine_settings as engine
from judge.engine_settings import ROOT, EngineSettings, engine_settings
from judge.errors import InvalidInput
from service.settings import Settings


@pytest.fixture(autouse=True)
def clean(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    for name in [n for n in os.environ if n.upper().startswith("JUDGE_")]:
        monkeypatch.delenv(name)
    env = tmp_path / ".env"
    monkeypatch.setattr(engine, "ENV_FILE", env)
    return env


def test_nothing_set_gives_the_defaults() -> None:
    assert engine_settings() == EngineSettings()
    assert engine_settings().problems_dir == ROOT / "problems"
    assert engine_settings().sandbox_offline is None


def test_each_kind_of_value_is_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JUDGE_PROBLEMS_DIR", "/srv/problems")
    monkeypatch.setenv("judge_sandbox_runtime", "runsc")  # names match in any case
    monkeypatch.setenv("JUDGE_SANDBOX_OFFLINE", "Yes")
    monkeypatch.setenv("JUDGE_WARM_POOL_SIZE", " 0 ")
    monkeypatch.setenv("JUDGE_SANDBOX_SWEEP_SECONDS", "2.5")
    monkeypatch.setenv("JUDGE_SANDBOX_MODE", "Container")
    monkeypatch.setenv("JUDGE_SLOT_RUNS", "7")
    assert engine_settings() == EngineSettings(Path("/srv/problems"), True, "runsc", 0, 2.5, 60.0,
                                               "container", 7)
    monkeypatch.setenv("JUDGE_SANDBOX_OFFLINE", "")
    assert engine_settings().sandbox_offline is None


def test_the_env_file_is_read_and_the_environment_wins(monkeypatch: pytest.MonkeyPatch, clean: Path) -> None:
    clean.write_text("# the judge\nexport JUDGE_SANDBOX_RUNTIME='runsc'\nJUDGE_WARM_POOL_SIZE = 3  # three\n"
                     'JUDGE_PROBLEMS_DIR="/a b"\nOTHER=1\nnot a line\n')
    assert engine_settings() == EngineSettings(Path("/a b"), None, "runsc", 3)
    monkeypatch.setenv("JUDGE_WARM_POOL_SIZE", "1")
    assert engine_settings().warm_pool_size == 1


@pytest.mark.parametrize(("name", "value", "words"), [
    ("JUDGE_WARM_POOL_SIZE", "two", "JUDGE_WARM_POOL_SIZE is 'two': it must be a whole number"),
    ("JUDGE_WARM_POOL_SIZE", "2.5", "JUDGE_WARM_POOL_SIZE is '2.5': it must be a whole number"),
    ("JUDGE_SANDBOX_SWEEP_SECONDS", "soon", "JUDGE_SANDBOX_SWEEP_SECONDS is 'soon': it must be a number"),
    ("JUDGE_SANDBOX_MODE", "jail", "JUDGE_SANDBOX_MODE is 'jail': it must be one of slot, container"),
    ("JUDGE_SANDBOX_OFFLINE", "maybe",
     "JUDGE_SANDBOX_OFFLINE is 'maybe': it must be true or false (or empty for automatic)"),
])
def test_a_value_that_does_not_fit_is_refused_by_name(monkeypatch: pytest.MonkeyPatch, name: str, value: str,
                                                      words: str) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(InvalidInput) as refused:
        engine_settings()
    assert refused.value.message == words and refused.value.param == name


def test_the_service_reads_the_same_variables_and_leaves_the_engine_its_own(
        monkeypatch: pytest.MonkeyPatch, clean: Path) -> None:
    monkeypatch.chdir(clean.parent)  # the service's settings read .env from the working folder
    clean.write_text("JUDGE_PORT=8123\nJUDGE_WARM_POOL_SIZE=4\n")
    monkeypatch.setenv("JUDGE_SANDBOX_RUNTIME", "runsc")
    service = Settings()
    assert service.port == 8123 and not hasattr(service, "sandbox_runtime")
    assert (engine_settings().warm_pool_size, engine_settings().sandbox_runtime) == (4, "runsc")


def test_each_variable_has_one_parser() -> None:
    """A JUDGE_ variable is read by the engine's settings or the service's, never by both, and
    every engine setting names the function that reads it."""
    engine_fields = dataclasses.fields(EngineSettings)
    assert not {f.name for f in engine_fields} & set(Settings.model_fields)
    assert all(callable(f.metadata.get("parse")) for f in engine_fields)
