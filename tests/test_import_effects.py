"""Importing the project changes nothing outside the modules themselves: every module of the
engine, the service and the API imported in a fresh interpreter leaves the environment, the
logging levels, the working folder and the data folder as they were. What a process needs set up
(the metrics folder, the verdict log's level, the niceness) is done by whoever starts it: the
API's lifespan, the worker's ``worker_init`` handlers, ``judge serve``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("judge", "sandbox", "service", "api", "judge_client")

PROBE = """
import importlib, json, logging, os, pkgutil, sys
before_env = dict(os.environ)
ours = sys.argv[1].split(",")
def levels():
    # Ours and the root's: a library may set its own logger's level (SQLAlchemy does).
    manager = logging.Logger.manager
    found = {name: logger.level for name, logger in manager.loggerDict.items()
             if isinstance(logger, logging.Logger) and logger.level != logging.NOTSET
             and name.split(".")[0] in ours}
    found["<root>"] = logging.getLogger().level
    return found
before_levels = levels()
names = []
for package in ours:
    module = importlib.import_module(package)
    names.append(package)
    for info in pkgutil.walk_packages(module.__path__, package + "."):
        # Alembic runs the migrations itself; a __main__ runs its program when imported;
        # sandbox.inside runs in the container (its harness is PID 1 there).
        if ".migrations" in info.name or info.name.endswith("__main__"):
            continue
        importlib.import_module(info.name)
        names.append(info.name)
after_env = dict(os.environ)
changed = sorted(k for k in before_env.keys() | after_env.keys() if before_env.get(k) != after_env.get(k))
new_levels = {k: v for k, v in levels().items() if before_levels.get(k) != v}
print(json.dumps({"modules": names, "env": changed, "levels": new_levels}))
"""


def import_all(tmp_path: Path, packages: tuple[str, ...], path: Path = ROOT) -> dict[str, object]:
    """What importing every module of ``packages`` (found on ``path``) changed: the environment's
    names, the loggers' levels, and the files made in the data folder and the working folder."""
    data, work = tmp_path / "data", tmp_path / "work"
    work.mkdir()
    env = {key: value for key, value in os.environ.items()
           if not key.startswith("JUDGE_") and key != "PROMETHEUS_MULTIPROC_DIR"}
    env.update(JUDGE_DATA_DIR=str(data), PYTHONPATH=str(path), PYTHONDONTWRITEBYTECODE="1")
    done = subprocess.run([sys.executable, "-c", PROBE, ",".join(packages)], capture_output=True,
                          text=True, env=env, cwd=work, timeout=120)
    assert done.returncode == 0, done.stderr
    seen: dict[str, object] = json.loads(done.stdout)
    seen["data"] = sorted(str(p.relative_to(tmp_path)) for p in data.rglob("*")) if data.exists() else []
    seen["work"] = sorted(str(p.relative_to(tmp_path)) for p in work.rglob("*"))
    return seen


def test_importing_every_module_changes_nothing_outside_it(tmp_path: Path) -> None:
    seen = import_all(tmp_path, PACKAGES)
    modules = seen["modules"]
    assert isinstance(modules, list)
    assert {"service.tasks", "service.metrics", "api.main", "judge.grading", "sandbox.warm_pool"} <= set(modules)
    assert (seen["env"], seen["levels"], seen["data"], seen["work"]) == ([], {}, [], [])


@pytest.mark.parametrize(("effect", "key", "found"), [
    ("import os\nos.environ['JUDGE_X'] = '1'\n", "env", ["JUDGE_X"]),
    ("import logging\nlogging.getLogger('noisy.x').setLevel(logging.INFO)\n", "levels", {"noisy.x": 20}),
    ("import logging\nlogging.getLogger().setLevel(logging.DEBUG)\n", "levels", {"<root>": 10}),
    ("from pathlib import Path\nPath('left.txt').write_text('')\n", "work", ["work/left.txt"]),
])
def test_an_import_with_an_effect_is_caught(tmp_path: Path, effect: str, key: str, found: object) -> None:
    package = tmp_path / "stand_in" / "noisy"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "effect.py").write_text(effect)
    seen = import_all(tmp_path, ("noisy",), tmp_path / "stand_in")
    assert seen["modules"] == ["noisy", "noisy.effect"]
    assert seen[key] == found
