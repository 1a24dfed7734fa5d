"""judge-client reads what a server sends within caps and deadlines: an answer or an event past
its cap is refused as soon as it is known to be (read in chunks, never whole), and `submit
--timeout` holds however slowly a server trickles its answer."""

from __future__ import annotations

import gzip
import json
import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from judge_client import client
from judge_client.answers import ANSWER_CAP, TooLarge
from judge_client.events import lines
from tests.utils.hostile_judge import Exchange, Route, answer, hostile_judge, run_client, streamed

MiB = 2**20
BLOCK = b"a" * MiB  # made once, so that the server's sending allocates nothing the test measures


def huge(prefix: bytes, mib: int = 200) -> Iterator[bytes]:
    yield prefix
    for _ in range(mib):
        yield BLOCK


def with_length(chunks: Iterator[bytes], length: int) -> Route:
    def route(exchange: Exchange) -> None:
        exchange.send_response(200)
        exchange.send_header("Content-Type", "application/json")
        exchange.send_header("Content-Length", str(length))
        exchange.end_headers()
        for chunk in chunks:
            exchange.send(chunk)
    return route


def peak_memory(run: Callable[[], Any]) -> tuple[Any, int]:
    """What ``run`` returns, and the most memory Python held at once while it ran."""
    tracemalloc.start()
    try:
        return run(), tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("route", [
    lambda: streamed(huge(b'{"id": 7, "stdout": "')),
    lambda: with_length(huge(b'{"id": 7, "stdout": "'), 200 * MiB + 21),
], ids=["no length", "a length of 200 MiB"])
def test_an_answer_past_the_cap_is_refused_without_holding_it(tmp_path: Path, route: Callable[[], Route]) -> None:
    with hostile_judge({"/api/v1/submissions/7": route()}) as judge:
        done, peak = peak_memory(lambda: run_client(judge, "status", "7", home=tmp_path))
    assert done.exit_code == 2, done.output
    assert "is larger than 16 MiB, the most the client reads" in done.stderr
    assert judge.sent["/api/v1/submissions/7"] < ANSWER_CAP + 32 * MiB  # it stopped reading at the cap
    assert peak < ANSWER_CAP + 32 * MiB, f"{peak / MiB:.0f} MiB held at once"


@pytest.mark.parametrize("stream", [
    lambda: huge(b"event: status\ndata: "),  # one line that never ends
    lambda: (b"event: status\n" + b"data: " + BLOCK + b"\n" for _ in range(200)),  # one event that never ends
], ids=["line", "event"])
def test_an_event_past_the_cap_is_refused_without_holding_it(tmp_path: Path, stream: Callable[[], Iterator[bytes]]) -> None:
    solution = tmp_path / "solution.py"
    solution.write_text("def f():\n    pass\n")
    events = "/api/v1/submissions/7/events"
    routes = {"/api/v1/submissions": answer({"id": 7, "status": "queued"}, status=201),
              events: streamed(stream(), "text/event-stream")}
    with hostile_judge(routes) as judge:
        done, peak = peak_memory(lambda: run_client(judge, "submit", str(solution), "--problem", "f",
                                                    home=tmp_path))
    assert done.exit_code == 2, done.output
    assert f"{events} is larger than 16 MiB" in done.stderr
    assert judge.sent[events] < ANSWER_CAP + 32 * MiB
    assert peak < 2 * ANSWER_CAP + 32 * MiB, f"{peak / MiB:.0f} MiB held at once"


def test_a_compressed_answer_is_refused_before_it_is_inflated(tmp_path: Path) -> None:
    bomb = gzip.compress(b'{"id": 7, "stdout": "' + b"a" * (64 * MiB) + b'"}')  # 64 KiB or so
    route = streamed([bomb], headers={"Content-Encoding": "gzip"})
    with hostile_judge({"/api/v1/submissions/7": route}) as judge:
        done = run_client(judge, "status", "7", home=tmp_path)
    assert done.exit_code == 2, done.output
    assert "is compressed (gzip), which the client did not ask for" in done.stderr


def trickled_body(exchange: Exchange) -> None:
    """An event stream whose one line grows a byte every 0.2 s: every byte restarts httpx's
    read timeout, and no line is ever complete."""
    streamed((b"a" for _ in range(100)), "text/event-stream", every=0.2)(exchange)


def trickled_headers(exchange: Exchange) -> None:
    for byte in b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nX-Slow: " + b"a" * 100:
        exchange.wfile.write(bytes([byte]))
        exchange.wfile.flush()
        time.sleep(0.2)


def trickled_then_silent(exchange: Exchange) -> None:
    """A byte every 0.2 s until just before the deadline, then nothing for 10 s: the last read,
    begun with most of the time used up, must still end at the deadline."""
    streamed((b"a" for _ in range(8)), "text/event-stream", every=0.2)(exchange)
    time.sleep(10)


def submitted_with_a_deadline(tmp_path: Path, route: str, follow: Route) -> tuple[Any, list[str], float]:
    """`judge-client submit --timeout 2` against a judge that queues submission 7 and answers
    ``route`` with ``follow``: the run's result, what the judge was asked, and the seconds taken."""
    solution = tmp_path / "solution.py"
    solution.write_text("def f():\n    pass\n")
    routes = {"/api/v1/submissions": answer({"id": 7, "status": "queued"}, status=201), route: follow}
    with hostile_judge(routes) as judge:
        started = time.monotonic()
        done = run_client(judge, "submit", str(solution), "--problem", "f", "--timeout", "2", home=tmp_path)
        took = time.monotonic() - started
    assert done.exit_code == 2, done.output
    assert "submission 7 is not judged after 2 s" in done.stderr
    return done, judge.asked, took


@pytest.mark.parametrize("events", [trickled_body, trickled_headers, trickled_then_silent],
                         ids=["body", "headers", "silent after a trickle"])
def test_submit_timeout_holds_against_a_trickling_event_stream(tmp_path: Path, events: Route) -> None:
    _, _, took = submitted_with_a_deadline(tmp_path, "/api/v1/submissions/7/events", events)
    # The deadline is 2 s and each trickle lasts 10 s or more, all of which the client once
    # waited out; the margin is for a loaded machine, not for the client.
    assert took < 5.0, f"{took:.1f} s"


def test_submit_timeout_holds_against_a_trickling_long_poll(tmp_path: Path) -> None:
    # No events route: the client follows with long polls, which trickle.
    _, asked, took = submitted_with_a_deadline(tmp_path, "/api/v1/submissions/7",
                                               streamed((b" " for _ in range(100)), every=0.2))
    assert "GET /api/v1/submissions/7" in asked
    assert took < 7.0, f"{took:.1f} s"  # the deadline, the poll's grace (POLL_GRACE, 2 s), a margin


def test_any_other_answer_must_arrive_whole_in_its_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(client, "ANSWER_SECONDS", 2.0)  # 120 s in use: too long for a test
    with hostile_judge({"/api/v1/submissions/7": streamed((b" " for _ in range(100)), every=0.2)}) as judge:
        started = time.monotonic()
        done = run_client(judge, "status", "7", home=tmp_path)
        took = time.monotonic() - started
    assert done.exit_code == 2, done.output
    assert "did not send its whole answer in 2 s" in done.stderr
    assert took < 5.0, f"{took:.1f} s"  # the trickle lasts 20 s


def test_event_stream_lines_end_at_any_line_end_even_across_chunks() -> None:
    chunks = [b"event: status\r", b"\ndata: {}\r\rdata", b": 1\n", b"\n: ok\r\n", b"unfinished"]
    assert list(lines(chunks, cap=100)) == ["event: status", "data: {}", "", "data: 1", "", ": ok"]
    with pytest.raises(TooLarge):
        list(lines([b"data: " + b"a" * 50, b"a" * 50], cap=100))
    with pytest.raises(TooLarge):
        list(lines([b"data: " + b"a" * 200 + b"\n"], cap=100))


def test_a_json_answer_within_the_cap_is_read_whole(tmp_path: Path) -> None:
    submission = {"id": 7, "problem": "f", "mode": "submit", "status": "done", "verdict": "accepted",
                  "score": 1.0, "tests": [{"name": "t", "status": "passed", "stdout": "a" * MiB}]}
    with hostile_judge({"/api/v1/submissions/7": streamed([json.dumps(submission).encode()])}) as judge:
        done = run_client(judge, "status", "7", "--json", home=tmp_path)
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout) == submission
