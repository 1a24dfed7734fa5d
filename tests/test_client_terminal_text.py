"""judge-client shows whatever the judge sends inert: learner text (stdout, exception names and
messages) and a hostile server's titles, names, messages and event statuses reach the terminal
with every control character as a visible escape, and are never read as Rich markup."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from judge_client.terminal_text import inert, json_text, unsafe
from tests.utils.hostile_judge import (
    answer,
    emitted_controls,
    event,
    hostile_judge,
    run_client,
    streamed,
)

TITLE = "\x1b]0;pwned\x1b\\"  # retitles the terminal window
CLEAR = "\x1b[2J\x1b[Hsubmission 1: accepted"  # clears the screen and forges a verdict
CLIPBOARD = "\x1b]52;c;ZWNobyBoaQ==\x07"  # writes the clipboard
C1 = "\x9b2J\x85"  # CSI as one character, and NEL
BIDI = "\u202eecnetpecca\u2066x\u2069"  # shows reversed
HIDDEN = "zero\u200bwidth\ufeff"
MARKUP = "[link=https://evil.example]x[/link][/bold]"
HOSTILE = [TITLE, CLEAR, CLIPBOARD, C1, BIDI, HIDDEN]


@pytest.mark.parametrize("text", HOSTILE)
def test_inert_shows_every_control_as_an_escape(text: str) -> None:
    shown = inert(text)
    assert not [char for char in shown if unsafe(char)]
    assert shown.encode("ascii", errors="ignore").decode() == shown  # each one is now ASCII text
    assert inert(text, multiline=True) == shown


def test_inert_keeps_text_and_layout_but_no_carriage_return() -> None:
    assert inert("\x1b[2J") == "\\x1b[2J" and inert("\u202e") == "\\u202e" and inert("\U000e0041") == "\\U000e0041"
    assert inert("é 漢字 😀 [bold]") == "é 漢字 😀 [bold]"
    assert inert("one\n\ttwo\r") == "one\\n\\ttwo\\r"
    assert inert("one\n\ttwo\r", multiline=True) == "one\n\ttwo\\r"  # CR would overwrite the line
    assert inert("\ud800") == "\\ud800"  # a lone surrogate cannot even be written to stdout


def test_json_output_is_the_same_value_and_inert() -> None:
    data = {"stdout": "".join(HOSTILE) + "\x7f\ud800\n", "title": "Précis 漢字"}
    written = json_text(data)
    assert json.loads(written) == data
    assert [char for char in written if char != "\n" and unsafe(char)] == []
    assert "Précis 漢字" in written  # readable, not \u00e9


def hostile_submission() -> dict[str, Any]:
    failing = {"name": TITLE + MARKUP, "visibility": "public", "status": "wrong_answer",
               "category": "wrong answer", "args": [BIDI], "kwargs": {}, "expected": 1.0,
               "expected_repr": "1.0" + C1, "actual_repr": "'" + HIDDEN + "'",
               "explanation": f"RuntimeError: {TITLE}", "note": MARKUP,
               "stdout": CLEAR + "\n" + CLIPBOARD + "\nsecond line\n"}
    return {"id": 7, "problem": "bleu_1gram" + MARKUP, "mode": "submit", "status": "done",
            "verdict": "wrong_answer", "score": 0.5, "message": CLEAR,
            "tests": [failing], "hidden": {"total": 3, "passed": 1, "not_run": 0,
                                           "first_failure": CLIPBOARD + "[/red]"}}


@pytest.mark.parametrize("terminal", [False, True], ids=["piped", "terminal"])
def test_status_shows_learner_text_inert_and_never_as_markup(tmp_path: Path, terminal: bool) -> None:
    with hostile_judge({"/api/v1/submissions/7": answer(hostile_submission())}) as judge:
        done = run_client(judge, "status", "7", home=tmp_path, terminal=terminal)
    assert done.exit_code == 1 or done.exit_code == 0, done.output
    assert done.exception is None or isinstance(done.exception, SystemExit), done.exception
    out = done.stdout
    assert emitted_controls(out) == []
    assert "\\x1b]8;" not in out and "\x1b]8;" not in out  # no hyperlink made
    for shown in (inert(TITLE), inert(CLEAR), inert(CLIPBOARD), inert(BIDI), inert(HIDDEN), MARKUP,
                  "[/red]", "second line"):
        assert shown in out, shown


def test_status_json_is_the_server_s_value_and_inert(tmp_path: Path) -> None:
    with hostile_judge({"/api/v1/submissions/7": answer(hostile_submission())}) as judge:
        done = run_client(judge, "status", "7", "--json", home=tmp_path)
    assert done.exit_code == 0, done.output
    assert emitted_controls(done.stdout) == []
    assert json.loads(done.stdout) == hostile_submission()


def test_fetch_shows_a_hostile_title_inert(tmp_path: Path) -> None:
    problem = {"slug": "bleu_1gram", "title": TITLE + MARKUP + C1, "function": "bleu_1gram",
               "statement_markdown": "# BLEU\n", "starter": "def bleu_1gram():\n    pass\n",
               "public_tests": []}
    with hostile_judge({"/api/v1/problems/bleu_1gram": answer(problem)}) as judge:
        done = run_client(judge, "fetch", "bleu_1gram", "--dir", str(tmp_path), home=tmp_path)
    assert done.exit_code == 0, done.output
    assert emitted_controls(done.stdout) == []
    assert inert(TITLE) + MARKUP + inert(C1) in done.stdout


def test_list_shows_hostile_names_inert(tmp_path: Path) -> None:
    row = {"id": "1" + CLEAR, "problem": "[/bold]" + C1, "mode": BIDI, "status": MARKUP,
           "verdict": TITLE, "score": "not a number", "created_at": CLIPBOARD}
    page = {"items": [row], "total": "[red]9", "limit": 20, "offset": 0}
    with hostile_judge({"/api/v1/submissions": answer(page)}) as judge:
        done = run_client(judge, "list", home=tmp_path)
    assert done.exit_code == 0, done.output
    assert emitted_controls(done.stdout) == []
    assert "[/bold]" in done.stdout and "[red]9" in done.stdout and inert(TITLE) in done.stdout


@pytest.mark.parametrize("body, shown", [
    ({"error": {"code": "not_found", "message": CLEAR + MARKUP, "request_id": TITLE}}, MARKUP),
    ("<html>" + CLIPBOARD + "[/bold]</html>", "[/bold]"),
], ids=["judge's error", "raw text"])
def test_an_error_answer_is_shown_inert(tmp_path: Path, body: object, shown: str) -> None:
    def route(exchange: Any) -> None:
        data = (body if isinstance(body, str) else json.dumps(body)).encode()
        exchange.send_response(404 if isinstance(body, dict) else 502)
        exchange.send_header("Content-Length", str(len(data)))
        exchange.end_headers()
        exchange.send(data)

    with hostile_judge({"/api/v1/submissions/7": route}) as judge:
        done = run_client(judge, "status", "7", home=tmp_path)
        as_json = run_client(judge, "status", "7", "--json", home=tmp_path)
    assert done.exit_code == 2 and "Traceback" not in done.output
    assert emitted_controls(done.stderr) == [] and shown in done.stderr
    assert as_json.exit_code == 2 and emitted_controls(as_json.stdout) == []
    assert shown in json.loads(as_json.stdout)["error"]["message"]


def test_submit_shows_event_statuses_and_the_verdict_inert(tmp_path: Path) -> None:
    solution = tmp_path / "solution.py"
    solution.write_text("def bleu_1gram():\n    return 1.0\n")
    stream = [event("status", {"id": 7, "status": TITLE + MARKUP}),
              event("status", {**hostile_submission(), "verdict": "accepted" + C1})]
    routes = {"/api/v1/submissions": answer({"id": 7, "status": CLEAR + "[/bold]"}, status=201),
              "/api/v1/submissions/7/events": streamed(stream, "text/event-stream", every=0.3)}
    with hostile_judge(routes) as judge:
        done = run_client(judge, "submit", str(solution), "--problem", "bleu_1gram", home=tmp_path)
        queued = run_client(judge, "submit", str(solution), "--problem", "bleu_1gram", "--no-wait",
                            home=tmp_path)
    assert done.exit_code == 1, done.output  # "accepted\x9b..." is not accepted
    assert emitted_controls(done.output) == [] and inert("accepted" + C1) in done.stdout
    assert queued.exit_code == 0 and emitted_controls(queued.output) == []
    assert inert(CLEAR) + "[/bold]" in queued.stdout


def test_the_progress_line_shows_event_statuses_inert_and_never_as_markup(tmp_path: Path) -> None:
    solution = tmp_path / "solution.py"
    solution.write_text("def bleu_1gram():\n    return 1.0\n")
    # Each event stays on the line long enough for the live display (10 times a second) to draw it.
    stream = [event("status", {"id": 7, "status": CLEAR + C1}), event("status", {"id": 7, "status": TITLE + MARKUP}),
              event("status", {**hostile_submission(), "verdict": "accepted"})]
    routes = {"/api/v1/submissions": answer({"id": 7, "status": "queued"}, status=201),
              "/api/v1/submissions/7/events": streamed(stream, "text/event-stream", every=0.4)}
    with hostile_judge(routes) as judge:
        done = run_client(judge, "submit", str(solution), "--problem", "bleu_1gram", home=tmp_path, terminal=True)
    assert done.exit_code == 0, done.output
    assert "Traceback" not in done.stderr and emitted_controls(done.stderr) == []
    assert f"submission 7: {inert(CLEAR + C1)}" in done.stderr
    assert f"submission 7: {inert(TITLE)}{MARKUP}" in done.stderr


@pytest.mark.parametrize(("sent", "shown"), [
    ({"assignment": 12, "late": False, "penalty": 0.0}, "counts for assignment 12\n"),
    ({"assignment": 12, "late": True, "penalty": 20.0}, "counts for assignment 12, late: -20% of the score\n"),
    ({"assignment": 12, "late": True, "penalty": 20.0, "score_override": 0.9}, "counts for assignment 12, late\n"),
    ({"assignment": 12, "late": True, "penalty": 20.0, "excused": True}, "counts for assignment 12, late but excused"),
    ({"assignment": "12" + CLEAR, "late": True, "penalty": 20.0}, None),  # not an id: nothing said
    ({"assignment": None}, None),
])
def test_submit_names_the_assignment_it_counts_for(tmp_path: Path, sent: dict[str, Any], shown: str | None) -> None:
    solution = tmp_path / "solution.py"
    solution.write_text("def bleu_1gram():\n    return 1.0\n")
    routes = {"/api/v1/submissions": answer({"id": 7, "status": "queued", "mode": "submit", **sent}, status=202)}
    with hostile_judge(routes) as judge:
        done = run_client(judge, "submit", str(solution), "--problem", "bleu_1gram", "--assignment", "12",
                          "--no-wait", home=tmp_path)
    assert done.exit_code == 0, done.output
    assert json.loads(judge.bodies[-1])["assignment"] == 12
    assert emitted_controls(done.output) == []
    if shown is None:
        assert "counts for" not in done.stdout
    else:
        assert shown in done.stdout


def test_submit_without_an_assignment_names_none(tmp_path: Path) -> None:
    solution = tmp_path / "solution.py"
    solution.write_text("def bleu_1gram():\n    return 1.0\n")
    routes = {"/api/v1/submissions": answer({"id": 7, "status": "queued", "mode": "submit"}, status=202)}
    with hostile_judge(routes) as judge:
        assert run_client(judge, "submit", str(solution), "--problem", "bleu_1gram", "--no-wait",
                          home=tmp_path).exit_code == 0
        refused = run_client(judge, "submit", str(solution), "--problem", "bleu_1gram", "--assignment", "0",
                             home=tmp_path)
    assert "assignment" not in json.loads(judge.bodies[-1])
    assert refused.exit_code == 2 and "--assignment" in refused.output


@pytest.mark.parametrize(("peak", "shown"), [
    (12_000_000, "peak memory 12.0 MB"), (True, None), ("12 MB" + CLEAR, None), (-1, None),
    (1e300, None), ([12], None), (None, None)])
def test_the_peak_memory_is_shown_only_as_a_number_the_client_checked(
        tmp_path: Path, peak: object, shown: str | None) -> None:
    submission = {**hostile_submission(), "peak_memory_bytes": peak}
    with hostile_judge({"/api/v1/submissions/7": answer(submission)}) as judge:
        done = run_client(judge, "status", "7", home=tmp_path)
    assert done.exception is None or isinstance(done.exception, SystemExit), done.exception
    assert emitted_controls(done.stdout) == []
    if shown is None:
        assert "peak memory" not in done.stdout
    else:
        assert shown in done.stdout
