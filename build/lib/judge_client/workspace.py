"""The folder ``fetch`` makes for a problem: the statement (README.md), the starter as the
solution file, the public tests (public_tests.json) and a small record (.judge-client.json) of
which problem it is and what the starter was, so ``submit`` knows the problem and a later
``fetch`` can tell a learner's edits from an untouched starter."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

RECORD = ".judge-client.json"
STATEMENT = "README.md"
PUBLIC_TESTS = "public_tests.json"
# What a slug or a function name may be before it becomes a file name: nothing that climbs out
# of the folder or hides a file.
SAFE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}")
# The most fetch writes of each file, far above what a problem needs (the shipped statements and
# public tests are under 8 KiB each, and the judge takes at most 64 KiB of code by default), and
# a bound on what a hostile server can put on the disk under the whole answer's own cap.
STATEMENT_CAP = 1 * 2**20
STARTER_CAP = 1 * 2**20
PUBLIC_TESTS_CAP = 8 * 2**20


class WorkspaceError(Exception):
    """The folder cannot be written as asked: ``message`` says why, ``hint`` what to do."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


@dataclass(frozen=True)
class Fetched:
    folder: Path
    written: list[Path]
    solution: Path
    kept_solution: bool


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _safe(name: str, what: str) -> str:
    if not SAFE_NAME.fullmatch(name) or ".." in name:
        raise WorkspaceError(f"the judge sent {what} {name!r}, which is not a safe file name")
    return name


def _file_text(value: object, what: str, cap: int) -> str:
    """``value`` as the text of a file, at most ``cap`` bytes of UTF-8. A lone surrogate (which
    JSON can carry and UTF-8 cannot) is written as its escape, as the judge writes it."""
    data = str(value).encode("utf-8", errors="backslashreplace")
    if len(data) > cap:
        raise WorkspaceError(f"the judge sent {what} of {len(data):,} bytes, more than the "
                             f"{cap // 2**20} MiB that fetch writes: nothing written",
                             "is this the judge? check the URL (`judge-client configure` shows it)")
    return data.decode("utf-8")


def _record(folder: Path) -> dict[str, Any]:
    try:
        data = json.loads((folder / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write_problem(problem: dict[str, Any], parent: Path, force: bool) -> Fetched:
    """Write the problem's folder under ``parent``. The solution file is replaced only when it
    is absent, still the starter last fetched (or the new one), or ``force`` is given."""
    slug = _safe(str(problem["slug"]), "the problem name")
    function = _safe(str(problem.get("function") or slug), "the function name")
    folder = parent / slug
    solution = folder / f"{function}.py"
    starter = _file_text(problem.get("starter") or "", "a starter", STARTER_CAP)
    keep = False
    if solution.exists() and not force:
        try:
            current = solution.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise WorkspaceError(f"cannot read {solution}: {exc}") from exc
        untouched = {_record(folder).get("starter_sha256"), _digest(starter)}
        if _digest(current) not in untouched:
            raise WorkspaceError(f"{solution} has changes of yours: not overwritten",
                                 "pass --force to replace it with the starter, or fetch into another --dir")
        keep = _digest(current) == _digest(starter)
    public = json.dumps(problem.get("public_tests") or [], indent=2, ensure_ascii=False) + "\n"
    files = {
        folder / STATEMENT: _file_text(problem.get("statement_markdown") or "", "a statement", STATEMENT_CAP),
        folder / PUBLIC_TESTS: _file_text(public, "public tests", PUBLIC_TESTS_CAP),
        folder / RECORD: json.dumps({"problem": slug, "version": problem.get("version"),
                                     "solution": solution.name, "starter_sha256": _digest(starter)},
                                    indent=2) + "\n",
    }
    if not keep:
        files[solution] = starter
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for path, text in files.items():
            path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise WorkspaceError(f"cannot write {folder}: {exc}") from exc
    written = [path for path in files if path.name != RECORD]
    return Fetched(folder, sorted(written), solution, keep)


def problem_of(file: Path) -> str | None:
    """The problem a solution file belongs to, from the record ``fetch`` left beside it."""
    slug = _record(file.resolve().parent).get("problem")
    return slug if isinstance(slug, str) and slug else None
