"""How the client shows problems and submissions with Rich: the verdict and score, the first
failing public test in full (what a learner needs to fix it), hidden tests as the aggregate the
judge gives, and the table of submissions."""

from __future__ import annotations

import json
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

Json = dict[str, Any]

VERDICT_STYLE = {"accepted": "bold green", "internal_error": "bold magenta"}


def verdict_text(verdict: str | None, status: str) -> Text:
    if verdict is None:
        return Text(status, style="yellow")
    return Text(verdict, style=VERDICT_STYLE.get(verdict, "bold red"))


def counts(submission: Json) -> tuple[int, int]:
    """(passed, total) over the public tests shown and the hidden aggregate."""
    tests = submission.get("tests") or []
    hidden = submission.get("hidden") or {}
    shown_hidden = sum(1 for t in tests if t.get("visibility") == "hidden")
    passed = sum(1 for t in tests if t.get("status") == "passed")
    total = len(tests)
    if hidden and not shown_hidden:  # the owner sees hidden tests in full, others as a total
        passed += int(hidden.get("passed") or 0)
        total += int(hidden.get("total") or 0)
    return passed, total


def first_public_failure(submission: Json) -> Json | None:
    return next((t for t in submission.get("tests") or []
                 if t.get("visibility", "public") == "public" and t.get("status") != "passed"), None)


def _call(test: Json) -> str:
    parts = [json.dumps(arg, ensure_ascii=False) for arg in test.get("args") or []]
    kwargs = test.get("kwargs") or {}
    parts += [f"{key}={json.dumps(value, ensure_ascii=False)}" for key, value in kwargs.items()]
    return ", ".join(parts)


def failure_panel(test: Json) -> Panel:
    """One failing public test: arguments, expected against actual, and the judge's explanation."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column(overflow="fold")
    grid.add_row("status", Text(str(test.get("status")), style="red"))
    grid.add_row("arguments", escape(_call(test)))
    expected = test.get("expected_repr") or json.dumps(test.get("expected"), ensure_ascii=False)
    grid.add_row("expected", escape(str(expected)))
    if test.get("actual_repr") is not None:
        grid.add_row("actual", escape(str(test["actual_repr"])))
    for label, key in (("explanation", "explanation"), ("about the test", "note"),
                       ("stdout", "stdout"), ("category", "category")):
        value = test.get(key)
        if value and not (key == "category" and test.get("explanation")):
            grid.add_row(label, escape(str(value)))
    return Panel(grid, title=f"first failing public test: {escape(str(test.get('name')))}",
                 title_align="left", border_style="red")


def show_submission(console: Console, submission: Json) -> None:
    """The verdict line, the server's message, the first failing public test and the hidden tests."""
    status = str(submission.get("status"))
    line = Text.assemble(f"submission {submission.get('id')} ({submission.get('problem')}, "
                         f"{submission.get('mode')}): ", verdict_text(submission.get("verdict"), status))
    if status == "done" and submission.get("score") is not None:
        passed, total = counts(submission)
        line.append(f"  score {float(submission['score']):.2f}")
        if total:
            line.append(f" ({passed} of {total} tests passed)")
    console.print(line)
    if status != "done":
        return
    if submission.get("message"):
        console.print(Text(str(submission["message"]), style="red"))
    failing = first_public_failure(submission)
    items: list[RenderableType] = []
    if failing is not None:
        items.append(failure_panel(failing))
    hidden = submission.get("hidden") or {}
    if hidden.get("total"):
        text = f"hidden tests: {hidden.get('passed', 0)} of {hidden['total']} passed"
        if hidden.get("not_run"):
            text += f", {hidden['not_run']} not run"
        if hidden.get("first_failure"):
            text += f"; first failure: {hidden['first_failure']}"
        items.append(Text(text))
    if items:
        console.print(Group(*items))


def submissions_table(page: Json) -> Table:
    table = Table(title=f"{len(page.get('items') or [])} of {page.get('total', 0)} submissions")
    for column in ("id", "problem", "mode", "status", "verdict", "score", "sent (UTC)"):
        table.add_column(column, justify="right" if column in ("id", "score") else "left",
                         no_wrap=column in ("id", "sent (UTC)"))
    for row in page.get("items") or []:
        score = row.get("score")
        table.add_row(str(row.get("id")), escape(str(row.get("problem"))), str(row.get("mode")),
                      str(row.get("status")), verdict_text(row.get("verdict"), ""),
                      "" if score is None else f"{float(score):.2f}",
                      str(row.get("created_at", ""))[:19].replace("T", " "))
    return table
