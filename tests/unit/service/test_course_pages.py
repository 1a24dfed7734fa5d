"""The course pages (issue 11): their paths serve the strict shell, and the page modules that hold
no DOM (times in words and the form's local times with their offset, the ?assignment link and
what Submit adds, the gradebook's order) give the right answers when Node runs them."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.routes.web import WEB

BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}
STATIC = WEB / "static"
needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="no Node.js to run the page modules with")


@pytest.mark.parametrize("path", ["/courses", "/courses/1", "/courses/987654", "/assignments/3",
                                  "/assignments/3/gradebook"])
def test_the_course_pages_are_the_shell(client: TestClient, path: str) -> None:
    response = client.get(path, headers=BROWSER)
    assert response.status_code == 200
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert response.text == client.get("/").text  # the script asks the API for everything


@pytest.mark.parametrize("path", ["/courses/abc", "/assignments/x/gradebook", "/assignments/3/grades",
                                  "/courses/1/assignments"])
def test_other_course_paths_are_not_pages(client: TestClient, path: str) -> None:
    assert client.get(path, headers=BROWSER).status_code in (404, 422)


def test_the_route_table_covers_the_page_paths() -> None:
    routes = (STATIC / "js" / "courses" / "routes.js").read_text()
    for pattern in [r"/^\/courses$/", r"/^\/courses\/(\d+)$/", r"/^\/assignments\/(\d+)$/",
                    r"/^\/assignments\/(\d+)\/gradebook$/"]:
        assert pattern in routes
    assert "...COURSE_ROUTES" in (STATIC / "app.js").read_text()


def run_module(tmp_path: Path, module: str, script: str, tz: str = "UTC") -> Any:
    """Run ``script`` (which imports ``./NAME.mjs`` for module ``js/assignments/NAME`` and prints JSON)
    under Node in time zone tz."""
    (tmp_path / f"{module}.mjs").write_text((STATIC / "js" / "assignments" / f"{module}.js").read_text())
    (tmp_path / "run.mjs").write_text(script)
    ran = subprocess.run(["node", "run.mjs"], cwd=tmp_path, capture_output=True, text=True, timeout=30,
                         env={**os.environ, "TZ": tz})
    assert ran.returncode == 0, ran.stderr
    return json.loads(ran.stdout)


@needs_node
def test_distances_in_words(tmp_path: Path) -> None:
    minute, hour, day = 60_000, 3_600_000, 86_400_000
    cases = [0, 59_999, minute, 2 * minute + 59_000, hour, hour + 5 * minute, 3 * hour + 2 * minute,
             day, day + hour, 2 * day + minute, -2 * hour]
    words = run_module(tmp_path, "due", 'import { durationWords } from "./due.mjs";\n'
                       f"console.log(JSON.stringify({json.dumps(cases)}.map(durationWords)));\n")
    assert words == ["less than a minute", "less than a minute", "1 minute", "2 minutes", "1 hour",
                     "1 hour 5 minutes", "3 hours 2 minutes", "1 day", "1 day 1 hour", "2 days", "2 hours"]


@needs_node
def test_what_an_assignments_times_mean_now(tmp_path: Path) -> None:
    a = {"opens_at": "2026-03-01T09:00:00Z", "due_at": "2026-03-03T09:00:00"}  # no zone: UTC
    moments = ["2026-03-01T08:30:00Z", "2026-03-01T09:00:00Z", "2026-03-02T06:00:00Z",
               "2026-03-03T09:00:00Z", "2026-03-03T11:30:00Z"]
    said = run_module(tmp_path, "due", 'import { dueWords } from "./due.mjs";\n'
                      f"const a = {json.dumps(a)};\n"
                      f"console.log(JSON.stringify({json.dumps(moments)}.map((m) => dueWords(a, Date.parse(m)))));\n")
    assert said == [
        {"state": "upcoming", "words": "opens in 30 minutes"},
        {"state": "open", "words": "due in 2 days"},
        {"state": "open", "words": "due in 1 day 3 hours"},
        {"state": "open", "words": "due in less than a minute"},  # the due time itself is in time
        {"state": "due", "words": "was due 2 hours 30 minutes ago"},
    ]


@needs_node
def test_a_learners_own_due_time_wins(tmp_path: Path) -> None:
    a = {"opens_at": "2026-03-01T09:00:00Z", "due_at": "2026-03-03T09:00:00Z", "your_due_at": "2026-03-03T09:30:00Z"}
    said = run_module(tmp_path, "due", 'import { dueWords, ownDueAt } from "./due.mjs";\n'
                      f"const a = {json.dumps(a)};\n"
                      "console.log(JSON.stringify([ownDueAt(a), dueWords(a, Date.parse('2026-03-03T09:01:00Z')),"
                      " ownDueAt({ ...a, your_due_at: null })]));\n")
    assert said == ["2026-03-03T09:30:00Z", {"state": "open", "words": "due in 29 minutes"}, "2026-03-03T09:00:00Z"]


@needs_node
@pytest.mark.parametrize(("tz", "winter", "summer"), [
    ("UTC", "+00:00", "+00:00"),
    ("Europe/Berlin", "+01:00", "+02:00"),
    ("America/St_Johns", "-03:30", "-02:30"),
    ("Asia/Kolkata", "+05:30", "+05:30"),
])
def test_local_times_are_sent_with_the_offset_of_their_date(tmp_path: Path, tz: str, winter: str,
                                                            summer: str) -> None:
    values = ["2026-01-15T09:00", "2026-07-15T23:59", "2026-02-30T09:00", "2026-01-15", "", "junk"]
    sent = run_module(tmp_path, "due", 'import { localInputToIso, toLocalInput } from "./due.mjs";\n'
                      f"const sent = {json.dumps(values)}.map(localInputToIso);\n"
                      "const back = sent.slice(0, 2).map((iso) => toLocalInput(iso));\n"
                      "console.log(JSON.stringify({ sent, back }));\n", tz)
    assert sent["sent"] == [f"2026-01-15T09:00:00{winter}", f"2026-07-15T23:59:00{summer}", None, None, None, None]
    assert sent["back"] == ["2026-01-15T09:00", "2026-07-15T23:59"]  # the edit form shows what was sent


@needs_node
def test_only_submit_counts_for_the_assignment_of_the_link(tmp_path: Path) -> None:
    script = (
        'import { assignmentFromSearch, problemForAssignment, submissionFields } from "./link.mjs";\n'
        'const searches = ["?assignment=12", "?x=1&assignment=7", "", "?assignment=0", "?assignment=abc",\n'
        '  "?assignment=12abc", "?assignment=-3"];\n'
        "const ids = searches.map(assignmentFromSearch);\n"
        'const fields = [["submit", 12], ["run", 12], ["try", 12], ["submit", null]].map(([m, id]) => submissionFields(m, id));\n'
        'console.log(JSON.stringify({ ids, fields, href: problemForAssignment("bleu 1", 12) }));\n')
    got = run_module(tmp_path, "link", script)
    assert got["ids"] == [12, 7, None, None, None, None, None]
    assert got["fields"] == [{"assignment": 12}, {}, {}, {}]
    assert got["href"] == "/problems/bleu%201?assignment=12"


@needs_node
def test_the_gradebook_order(tmp_path: Path) -> None:
    def cell(score: float | None, accepted: bool, attempts: int) -> dict[str, Any]:
        return {"best_score": score, "accepted": accepted, "attempts": attempts}

    rows = [
        {"user": "carol", "cells": [cell(1.0, True, 3)], "total_score": 1.0},
        {"user": "alice", "cells": [cell(None, False, 0)], "total_score": 0.0},
        {"user": "bob", "cells": [cell(1.0, True, 1)], "total_score": 1.0},
        {"user": "dave", "cells": [cell(0.5, False, 2)], "total_score": 0.5},
    ]
    orders = [["learner", "ascending"], ["learner", "descending"], ["total", "descending"],
              ["total", "ascending"], [0, "descending"], [0, "ascending"]]
    script = ('import { sortRows } from "./gradebook-order.mjs";\n'
              f"const rows = {json.dumps(rows)};\n"
              f"console.log(JSON.stringify({json.dumps(orders)}.map(([c, d]) => sortRows(rows, c, d).map((r) => r.user))));\n")
    got = run_module(tmp_path, "gradebook-order", script)
    assert got == [
        ["alice", "bob", "carol", "dave"],
        ["dave", "carol", "bob", "alice"],
        ["bob", "carol", "dave", "alice"],  # ties keep the names in order
        ["alice", "dave", "bob", "carol"],
        ["bob", "carol", "dave", "alice"],  # the same score: fewer attempts first
        ["alice", "dave", "carol", "bob"],
    ]
