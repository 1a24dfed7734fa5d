"""The host's side of the protocol, against a scripted supervisor: no container needed."""

from __future__ import annotations

import base64
import dataclasses
import json
import time
from collections.abc import Callable
from typing import Any

import pytest

from sandbox.conversation import AHEAD_BYTES, StreamEnded, converse
from sandbox.inside import codec
from sandbox.inside.learner import _unless_as_sent
from sandbox.inside.protocol import AS_SENT, Kind, Outcome, ProtocolError, parse_claim, parse_step
from sandbox.interface import Isolation, Limits, Payload, TestInput

Reply = bytes | None | Callable[[], bytes | None]


def step(kind: str = "test", seq: int | None = 0, claim: Any = None, **fields: Any) -> bytes:
    text = claim if claim is None or isinstance(claim, str) else json.dumps(claim)
    record = {"kind": kind, "seq": seq, "stop": None, "exit": 0, "signal": None, "stdout": "",
              "claim": None if text is None else base64.b64encode(text.encode()).decode(),
              "memory": None}
    record.update(fields)
    return json.dumps(record).encode()


def returned(value: Any, args: list[Any]) -> dict[str, Any]:
    return {"outcome": "returned", "value": codec.encode(value),
            "args_after": [codec.encode(a) for a in args], "kwargs_after": {}}


LOADED = step("import", None, {"outcome": "returned"})


class Scripted:
    """A Channel whose supervisor answers each frame with the next scripted line."""

    def __init__(self, replies: list[Reply]) -> None:
        self.replies = replies
        self.sent: list[Any] = []
        self.sends = 0

    def send(self, data: bytes) -> None:
        """Each frame of the data: a length line, then that many bytes of JSON."""
        self.sends += 1
        while data:
            size, rest = data.split(b"\n", 1)
            self.sent.append(json.loads(rest[:int(size)]))
            data = rest[int(size):]

    def next_line(self, deadline: float) -> bytes | None:
        if not self.replies:
            raise StreamEnded("over")
        reply = self.replies.pop(0)
        if callable(reply):
            reply = reply()
        if reply is None:
            time.sleep(max(0.0, deadline - time.monotonic()))
        return reply

    def killed_for_memory(self) -> bool:
        return False


def payload(n_tests: int = 3, limit: float = 0.5) -> Payload:
    tests = [TestInput([codec.encode(["a", "b"])]) for _ in range(n_tests)]
    return Payload("def f(x): ...", "f", tests, Limits(time_per_test=limit, time_per_submission=20))


def run(replies: list[Reply], n_tests: int = 3, limit: float = 0.5) -> tuple[Any, Scripted]:
    channel = Scripted(replies)
    return converse(channel, payload(n_tests, limit), time.monotonic()), channel


def test_a_well_behaved_run() -> None:
    good = step(claim=returned(1.5, [["a", "b"]]))
    result, channel = run([LOADED, good, step(seq=1, claim=returned(2.5, [["a", "b"]])),
                           step(seq=2, claim=returned(3.5, [["a", "b"]]))])
    assert [r.value for r in result.results] == [1.5, 2.5, 3.5]
    assert all(r.seconds is not None and r.seconds < 0.5 for r in result.results)
    # The start, one frame per test (arguments only), then the end.
    assert channel.sent[0]["function"] == "f" and "expected" not in json.dumps(channel.sent)
    assert channel.sent[-1] is None and len(channel.sent) == 5


def test_each_step_keeps_the_memory_its_supervisor_counted() -> None:
    """The learner process's high-water mark comes with each record, a broken claim's too."""
    result, _ = run([LOADED, step(claim=returned(1.5, [["a", "b"]]), memory=9_000_000),
                     step(seq=1, claim="not json", memory=12_000_000),
                     step(seq=2, claim=returned(1.5, [["a", "b"]]), memory=1),  # set aside
                     step(seq=3, claim=returned(1.5, [["a", "b"]]))])
    assert [r.memory for r in result.results] == [9_000_000, 12_000_000, None]
    assert result.results[1].outcome is Outcome.CRASHED


@pytest.mark.parametrize(("line", "message"), [
    (b"not json", "not valid JSON"),
    (b"[1, 2]", "must be a JSON object"),
    (step(seq=1), "step 0"),
    (step(seq="0"), "step 0"),
    (step(kind="import"), "expected a 'test' record"),
    (step(claim=returned(1.0, [["a", "b"]]), extra=1), "unexpected keys"),
    (b'{"kind": "test", "kind": "test"}', "appears twice"),
    (step(stop="bored"), "unknown stop reason"),
    (step(signal="9"), "signal must be an integer"),
    (step(memory=1.5), "memory must be an integer"),
    (step(memory=-1), "memory must not be negative"),
])
def test_a_broken_supervisor_record_fails_the_test_and_ends_the_run(line: bytes, message: str) -> None:
    result, channel = run([LOADED, line])
    assert len(result.results) == 1
    assert result.results[0].outcome is Outcome.CRASHED
    assert message in result.results[0].detail
    assert channel.sent[-1] != None  # noqa: E711 - the run ended without asking for more


@pytest.mark.parametrize(("line", "message"), [
    (step(claim='{"outcome": "returned", "value": {"t": "float", "v": NaN}}'), "NaN is not allowed"),
    (step(claim={"outcome": "returned", "value": codec.encode(1.0)}), "lacks"),
    (step(claim={"outcome": "returned", "value": codec.encode(1.0), "args_after": [],
                 "kwargs_after": {}}), "args_after must be a list of 1"),
    (step(claim="[" * 100_000 + "]" * 100_000), "nested too deeply"),
    (step(claim={"outcome": "timeout"}), "may claim"),
    (step(claim={"outcome": "returned", "value": {"t": "list", "v": [{"t": "int", "v": 3}]},
                 "args_after": [{"t": "str"}], "kwargs_after": {}}), "value breaks the schema"),
    (step(stop="claim_malformed", claim=None), "frame is broken"),
    (step(stop="claim_too_large", claim=None), "larger than the 4 MiB"),
])
def test_a_broken_claim_fails_its_test_and_a_fresh_process_takes_the_rest(
        line: bytes, message: str) -> None:
    # Test 1 went while test 0 ran, to the process whose claim is then refused: its record is
    # set aside, and test 1 goes again to a fresh process (the supervisor's third test frame).
    in_the_old_process = step(seq=1, claim=returned(9.5, [["a", "b"]]))
    good = step(seq=2, claim=returned(2.5, [["a", "b"]]))
    result, channel = run([LOADED, line, in_the_old_process, good], n_tests=2)
    assert [r.outcome for r in result.results] == [Outcome.CRASHED, Outcome.RETURNED]
    assert message in result.results[0].detail
    assert result.results[1].value == 2.5
    # start, test 0, test 1 (ahead), the request for a fresh process, test 1 again, the end
    assert channel.sent[0]["function"] == "f" and channel.sent[1] == channel.sent[2] == channel.sent[4]
    assert channel.sent[3] == "fresh" and channel.sent[-1] is None and len(channel.sent) == 6
    assert result.finished


def test_a_test_set_aside_after_a_broken_claim_that_times_out_ends_the_run() -> None:
    def late() -> bytes:
        time.sleep(0.3)
        return step(seq=1, claim=returned(1.0, [["a", "b"]]))

    result, channel = run([LOADED, step(claim="not json"), late], n_tests=3, limit=0.2)
    assert [r.outcome for r in result.results] == [Outcome.CRASHED, Outcome.TIMEOUT]
    assert "fresh" not in channel.sent and not result.finished


def test_the_next_test_goes_while_one_runs_and_is_timed_from_the_record_before() -> None:
    """Test 1's frame goes with test 0's; test 0 takes 0.3 s and test 1 answers at once: test 1
    took no time, on the host's clock, and test 0 is not a time-out for a limit of 0.5 s."""
    def slow() -> bytes:
        time.sleep(0.3)
        return step(claim=returned(1.0, [["a", "b"]]))

    result, channel = run([LOADED, slow, step(seq=1, claim=returned(1.0, [["a", "b"]]))], n_tests=2)
    assert [r.outcome for r in result.results] == [Outcome.RETURNED] * 2
    assert result.results[0].seconds >= 0.3 and result.results[1].seconds < 0.1
    assert len(channel.sent) == 4


def test_a_large_frame_waits_for_the_record_before_it() -> None:
    """A frame over AHEAD_BYTES is never ahead: it could fill the supervisor's pipe while the
    supervisor waits to write a record the host is not reading."""
    big = TestInput([codec.encode("x" * (AHEAD_BYTES + 1))])
    small = TestInput([codec.encode("y")])
    sent_when: list[int] = []

    class Counting(Scripted):
        def next_line(self, deadline: float) -> bytes | None:
            sent_when.append(len(self.sent))
            return super().next_line(deadline)

    replies: list[Reply] = [LOADED] + [step(seq=i, claim=returned(1, ["x" * (AHEAD_BYTES + 1)]
                                                            if i % 2 == 0 else ["y"])) for i in range(4)]
    channel = Counting(replies)
    converse(channel, Payload("def f(x): ...", "f", [big, small, big, small], Limits()), time.monotonic())
    # Frames sent when each record is awaited: the start; test 0 and the small test 1 ahead;
    # still those for test 1 (test 2 is big); test 2 alone, then the small test 3 ahead.
    assert sent_when == [1, 3, 3, 5, 5]


def test_after_a_refused_claim_one_frame_at_most_waits() -> None:
    """Each refused claim throws away the tests sent ahead: a submission that makes every claim
    refused must not make the host run each test up to sixteen times."""
    sent_when: list[int] = []

    class Counting(Scripted):
        def next_line(self, deadline: float) -> bytes | None:
            sent_when.append(len(self.sent))
            return super().next_line(deadline)

    good = [step(seq=seq, claim=returned(1.0, [["a", "b"]])) for seq in range(1, 11)]
    channel = Counting([LOADED, step(seq=0, claim="not json"), *good])
    result = converse(channel, payload(6), time.monotonic())
    assert [r.outcome for r in result.results] == [Outcome.CRASHED] + [Outcome.RETURNED] * 5
    # Frames sent when each record is awaited: the start; all six tests at once; still those
    # while the five set aside are read; then FRESH and tests 1 and 2, and one more at a time.
    assert sent_when == [1, 7, 7, 7, 7, 7, 7, 10, 11, 12, 13, 13]
    assert channel.sent[7] == "fresh" and result.finished


def test_frames_go_in_batches_once_half_the_depth_has_run() -> None:
    """Every hop of a frame wakes a process (the host's send, dockerd, the shim, the
    supervisor): the frames ahead are topped up once they fall to half the depth, in one send."""
    waiting: list[int] = []  # before each test's record: its frame and those sent after it

    class Counting(Scripted):
        answered = -1  # the import's record comes first

        def next_line(self, deadline: float) -> bytes | None:
            if self.answered >= 0:
                waiting.append(len(self.sent) - 1 - self.answered)
            self.answered += 1
            return super().next_line(deadline)

    tests = 40
    channel = Counting([LOADED, *(step(seq=seq, claim=returned(1.0, [["a", "b"]]))
                                  for seq in range(tests))])
    result = converse(channel, payload(tests), time.monotonic())
    assert [r.outcome for r in result.results] == [Outcome.RETURNED] * tests and result.finished
    # The start; tests 0-16 (the one to run and sixteen behind it); 17-25, 26-34 and 35-39,
    # each once eight were left waiting; the end.
    assert channel.sends == 6
    assert waiting == [*range(17, 8, -1)] * 3 + [*range(13, 0, -1)]


def test_the_start_names_the_isolation() -> None:
    _, channel = run([LOADED, step(claim=returned(1.5, [["a", "b"]]))], n_tests=1)
    assert channel.sent[0]["isolation"] == "shared"
    per_test = dataclasses.replace(payload(1), isolation=Isolation.PER_TEST)
    scripted = Scripted([LOADED, step(claim=returned(1.5, [["a", "b"]]))])
    converse(scripted, per_test, time.monotonic())
    assert scripted.sent[0]["isolation"] == "per_test"


def test_the_host_clock_decides_a_time_out() -> None:
    def late() -> bytes:
        time.sleep(0.3)
        return step(claim=returned(1.0, [["a", "b"]]))

    result, _ = run([LOADED, late], limit=0.2)
    assert result.results[0].outcome is Outcome.TIMEOUT
    assert "each test may take 0.2 s" in result.results[0].detail
    assert len(result.results) == 1  # the rest are never sent


def test_silence_is_a_time_out_after_the_grace() -> None:
    started = time.monotonic()
    result, _ = run([LOADED, None], limit=0.2)
    assert result.results[0].outcome is Outcome.TIMEOUT
    assert time.monotonic() - started < 0.2 + 1.0 + 0.5


def test_a_stream_that_ends_early_is_the_judges_failure() -> None:
    with pytest.raises(StreamEnded):
        run([LOADED, step(claim=returned(1.0, [["a", "b"]]))])


def test_what_the_supervisor_saw_decides_over_the_claim() -> None:
    claim = returned(1.0, [["a", "b"]])
    result, _ = run([LOADED, step(claim=claim, stop="output_limit"),
                     step(seq=1, signal=9, exit=None), step(seq=2, signal=25, exit=None)])
    assert [r.outcome for r in result.results] == [
        Outcome.OUTPUT_LIMIT, Outcome.MEMORY, Outcome.OUTPUT_LIMIT]


def test_a_crash_without_a_claim_says_how_it_ended() -> None:
    result, _ = run([LOADED, step(exit=3), step(seq=1, signal=11, exit=None), step(seq=2)], )
    assert [r.detail for r in result.results] == [
        "the process exited with status 3 before returning",
        "the process was killed by SIGSEGV before returning",
        "the process exited with status 0 before returning"]


def test_a_failed_load_sends_no_test() -> None:
    loaded = step("import", None, {"outcome": "raised", "error": {
        "type": "NameError", "message": "x", "line": 2}})
    result, channel = run([loaded])
    assert result.loaded.outcome is Outcome.RAISED and result.results == []
    assert channel.sent[1:] == [None]


def test_claims_are_parsed_exactly() -> None:
    claim = json.dumps({"outcome": "returned", "value": codec.encode("a\x00\ud800"),
                        "args_after": [], "kwargs_after": {"x": codec.encode(1)}})
    parsed = parse_claim(claim, Kind.TEST, 0, frozenset({"x"}))
    assert parsed.value == "a\x00\ud800" and parsed.kwargs_after == {"x": 1}
    with pytest.raises(ProtocolError, match="kwargs_after"):
        parse_claim(claim, Kind.TEST, 0, frozenset())
    with pytest.raises(ProtocolError, match="bytes; at most"):
        parse_step(b" " * (9 * 2**20), Kind.TEST, 0)


def test_an_argument_that_comes_back_as_sent_is_not_decoded_again() -> None:
    sent = [codec.encode(["a", True, 1.5]), codec.encode((1, None))]
    claim = json.dumps(returned(0.5, [["a", True, 1.5], (1, None)]))
    result = parse_claim(claim, Kind.TEST, 2, frozenset(), sent, {})
    assert result.args_after == [AS_SENT, AS_SENT] and result.value == 0.5
    # Changed, by value or only by type: decoded, for the judge to compare and explain.
    for after in (["a", True, 2.5], ["a", 1, 1.5], ("a", True, 1.5)):
        claim = json.dumps(returned(0.5, [after, (1, None)]))
        result = parse_claim(claim, Kind.TEST, 2, frozenset(), sent, {})
        assert result.args_after is not None and result.args_after[0] == after
        assert type(result.args_after[0]) is type(after) and result.args_after[1] is AS_SENT


def test_the_learner_side_marks_an_unchanged_argument_and_sends_a_changed_one() -> None:
    """An unchanged argument comes back as null, which the host takes as sent without parsing a
    tree; a changed one, even only in type, comes back whole and is decoded for the judge."""
    sent = codec.encode(["a", True, 1.5])
    assert _unless_as_sent(["a", True, 1.5], sent) is None
    for after in (["a", True, 2.5], ["a", 1, 1.5], ("a", True, 1.5), ["a", True, 1.5, None]):
        assert _unless_as_sent(after, sent) == codec.encode(after)
    claim = json.dumps({"outcome": "returned", "value": codec.encode(0.5),
                        "args_after": [None, codec.encode([2])], "kwargs_after": {"k": None}})
    result = parse_claim(claim, Kind.TEST, 2, frozenset({"k"}))
    assert result.args_after == [AS_SENT, [2]] and result.kwargs_after == {"k": AS_SENT}


def test_a_number_where_the_host_sent_a_bool_is_refused_not_taken_as_sent() -> None:
    """1 == True in Python: equal trees must not let a malformed one through."""
    sent = [codec.encode([True])]
    forged = {"outcome": "returned", "value": codec.encode(0.5),
              "args_after": [{"t": "list", "v": [{"t": "bool", "v": 1}]}], "kwargs_after": {}}
    with pytest.raises(ProtocolError, match="breaks the schema"):
        parse_claim(json.dumps(forged), Kind.TEST, 1, frozenset(), sent, {})


def test_keyword_arguments_come_back_as_sent_too() -> None:
    sent = {"tokens": codec.encode(["x"])}
    claim = {"outcome": "returned", "value": codec.encode(1), "args_after": [],
             "kwargs_after": {"tokens": codec.encode(["x"])}}
    assert parse_claim(json.dumps(claim), Kind.TEST, 0, frozenset(sent), [], sent).kwargs_after == {
        "tokens": AS_SENT}
    claim["kwargs_after"] = {"tokens": codec.encode(["y"])}
    assert parse_claim(json.dumps(claim), Kind.TEST, 0, frozenset(sent), [], sent).kwargs_after == {
        "tokens": ["y"]}


def test_no_hidden_test_goes_ahead_while_a_shown_one_runs() -> None:
    """Tests 0 and 1 are shown to the learner, 2 and 3 hidden: test 2's arguments go only once
    test 1 has answered, so no hidden input is in the container while a shown value is made."""
    sent_when: list[int] = []

    class Counting(Scripted):
        def next_line(self, deadline: float) -> bytes | None:
            sent_when.append(len(self.sent))
            return super().next_line(deadline)

    tests = [TestInput([codec.encode(["a", "b"])]) for _ in range(4)]
    replies: list[Reply] = [LOADED] + [step(seq=i, claim=returned(1.5, [["a", "b"]])) for i in range(4)]
    channel = Counting(replies)
    result = converse(channel, Payload("def f(x): ...", "f", tests, Limits(), shown=2), time.monotonic())
    assert [r.outcome for r in result.results] == [Outcome.RETURNED] * 4
    # The start; tests 0 and 1; still those for test 1; then tests 2 and 3.
    assert sent_when == [1, 3, 3, 5, 5]


def test_checking_each_value_counts_in_the_submissions_wall_clock() -> None:
    """The judge checks each value as it arrives (``on_result``), while the next test runs; once
    that has used up the wall clock, the next test not sent is a time-out that says so and the
    rest are never sent."""
    checked: list[int] = []

    def slow_check(position: int, result: Any) -> None:
        checked.append(position)
        time.sleep(0.4)  # a huge value being compared and explained

    tests = [TestInput([codec.encode(["a", "b"])]) for _ in range(8)]
    slow = Payload("def f(x): ...", "f", tests, Limits(time_per_test=0.5, time_per_submission=1.0),
                   on_result=slow_check)
    replies: list[Reply] = [LOADED] + [step(seq=i, claim=returned(1.5, [["a", "b"]])) for i in range(8)]
    channel = Scripted(replies)
    result = converse(channel, slow, time.monotonic())
    outcomes = [r.outcome for r in result.results]
    assert outcomes[:-1] == [Outcome.RETURNED] * (len(outcomes) - 1) and len(outcomes) < 8
    assert outcomes[-1] is Outcome.TIMEOUT
    assert "the submission's time ran out" in result.results[-1].detail
    assert "1 s in all" in result.results[-1].detail
    assert checked == list(range(len(outcomes) - 1))
    # The tests sent ahead went with the run: no end of the tests was sent.
    assert None not in channel.sent and not result.finished
