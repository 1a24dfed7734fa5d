"""How the client shows problems and submissions with Rich: the verdict and score, the first
failing public test in full (what a learner needs to fix it), hidden tests as the aggregate the
judge gives, and the table of submissions.

Every value the judge sent reaches Rich as a ``Text`` made by ``terminal_text.text``: never as a
markup string, never with a control character left in it (a learner's stdout or exception text,
or anything a hostile server sends)."""

from __future__ import annotations

import json
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from judge_client.terminal_text import text

Json = dict[str, Any]

VERDICT_STYLE = {"accepted": "bold green", "internal_error": "bold magenta"}


def verdict_text(verdict: object, status: object) -> Text:
    if verdict is None:
        return text(status, "yellow")
    return text(verdict, VERDICT_STYLE.get(str(verdict), "bold red"))


def number(value: object) -> float | None:
    """A count or score the judge sent, or None when it is not a number (a broken or hostile
    answer must not end the command with a traceback)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _objects(value: object) -> list[Json]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _object(value: object) -> Json:
    return value if isinstance(value, dict) else {}


def counts(submission: Json) -> tuple[int, int]:
    """(passed, total) over the public tests shown and the hidden aggregate."""
    tests = _objects(submission.get("tests"))
    hidden = _object(submission.get("hidden"))
    shown_hidden = sum(1 for t in tests if t.get("visibility") == "hidden")
    passed = sum(1 for t in tests if t.get("status") == "passed")
    total = len(tests)
    if hidden and not shown_hidden:  # the owner sees hidden tests in full, others as a total
        passed += int(number(hidden.get("passed")) or 0)
        total += int(number(hidden.get("total")) or 0)
    return passed, total


def first_public_failure(submission: Json) -> Json | None:
    return next((t for t in _objects(submission.get("tests"))
                 if t.get("visibility", "public") == "public" and t.get("status") != "passed"), None)


def _call(test: Json) -> str:
    args = test.get("args")
    kwargs = _object(test.get("kwargs"))
    parts = [json.dumps(arg, ensure_ascii=False) for arg in (args if isinstance(args, list) else [])]
    parts += [f"{key}={json.dumps(value, ensure_ascii=False)}" for key, value in kwargs.items()]
    return ", ".join(parts)


def failure_panel(test: Json) -> Panel:
    """One failing public test: arguments, expected against actual, and the judge's explanation."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column(overflow="fold")
    grid.add_row("status", text(test.get("status"), "red"))
    grid.add_row("arguments", text(_call(test)))
    expected = test.get("expected_repr") or json.dumps(test.get("expected"), ensure_ascii=False)
    grid.add_row("expected", text(expected))
    if test.get("actual_repr") is not None:
        grid.add_row("actual", text(test["actual_repr"]))
    for label, key in (("explanation", "explanation"), ("about the test", "note"),
                       ("stdout", "stdout"), ("category", "category")):
        value = test.get(key)
        if value and not (key == "category" and test.get("explanation")):
            # stdout keeps its lines and tabs; every other field is one line as the judge writes it.
            grid.add_row(label, text(value, multiline=key == "stdout"))
    return Panel(grid, title=Text.assemble("first failing public test: ", text(test.get("name"))),
                 title_align="left", border_style="red")


def show_submission(console: Console, submission: Json) -> None:
    """The verdict line, the server's message, the first failing public test and the hidden tests."""
    status = submission.get("status")
    line = Text.assemble("submission ", text(submission.get("id")), " (", text(submission.get("problem")),
                         ", ", text(submission.get("mode")), "): ",
                         verdict_text(submission.get("verdict"), status))
    score = number(submission.get("score"))
    if status == "done" and score is not None:
        passed, total = counts(submission)
        line.append(f"  score {score:.2f}")
        if total:
            line.append(f" ({passed} of {total} tests passed)")
    peak = number(submission.get("peak_memory_bytes"))
    if status == "done" and peak is not None and 0 <= peak < 2**53:
        line.append(f"  peak memory {peak / 1e6:.1f} MB")
    console.print(line)
    show_credit(console, submission)
    if submission.get("held") is True:
        console.print(Text("judged; the result is held until your instructors release the "
                           "assignment's grades", "yellow"))
        return
    if status != "done":
        return
    if submission.get("message"):
        # One line: printed bare under the verdict, a newline in a learner's exception text
        # could make a line of its own that reads like the judge's.
        console.print(text(submission["message"], "red"))
    failing = first_public_failure(submission)
    items: list[RenderableType] = []
    if failing is not None:
        items.append(failure_panel(failing))
    hidden = _object(submission.get("hidden"))
    if hidden.get("total"):
        line = Text.assemble("hidden tests: ", text(hidden.get("passed", 0)), " of ", text(hidden["total"]),
                             " passed")
        if hidden.get("not_run"):
            line.append_text(Text.assemble(", ", text(hidden["not_run"]), " not run"))
        if hidden.get("first_failure"):
            line.append_text(Text.assemble("; first failure: ", text(hidden["first_failure"])))
        items.append(line)
    if items:
        console.print(Group(*items))


def show_credit(console: Console, submission: Json) -> None:
    """Which assignment a submission counts for, and whether it was late (and what that costs)."""
    assignment = submission.get("assignment")
    if submission.get("mode") != "submit" or type(assignment) is not int:
        return
    line = Text.assemble("counts for assignment ", text(assignment))
    # A score set by hand counts as it is: lateness takes nothing from it.
    by_hand = number(submission.get("score_override")) is not None
    penalty = None if by_hand else number(submission.get("penalty"))
    if submission.get("excused") is True:
        line.append(", late but excused")
    elif submission.get("late") is True:
        line.append_text(Text.assemble(", late: -", text(f"{penalty:g}"), "% of the score")
                         if penalty else Text(", late"))
    console.print(line)


def submissions_table(page: Json) -> Table:
    rows = _objects(page.get("items"))
    table = Table(title=Text.assemble(f"{len(rows)} of ", text(page.get("total", 0)), " submissions"))
    for column in ("id", "problem", "mode", "status", "verdict", "score", "sent (UTC)"):
        table.add_column(column, justify="right" if column in ("id", "score") else "left",
                         no_wrap=column in ("id", "sent (UTC)"))
    for row in rows:
        score = number(row.get("score"))
        table.add_row(text(row.get("id")), text(row.get("problem")), text(row.get("mode")),
                      text(row.get("status")),
                      text("held", "yellow") if row.get("held") is True
                      else verdict_text(row.get("verdict"), ""),
                      "" if score is None else f"{score:.2f}",
                      text(str(row.get("created_at", ""))[:19].replace("T", " ")))
    return table
