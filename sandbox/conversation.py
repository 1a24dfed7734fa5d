"""The host's side of the protocol: send the steps, time them, decide how each ended.

The host measures each test on its own clock, up to receiving its record; a test over its limit
is a time-out whatever the container says. The next test's arguments go while a test runs
(``_Tests``). The first time-out or broken supervisor record ends the run: no test after the one
already on its way is sent, and that one's container or jail goes with the run. A learner's claim
that breaks the protocol fails its test only: the host asks for a fresh learner process
(``FRESH``) and goes on. Nothing here knows Docker: a ``Channel`` moves the bytes.
"""

from __future__ import annotations

import signal
import time
from collections import deque
from typing import Protocol

from sandbox.inside.protocol import (
    FRESH,
    CallResult,
    Kind,
    Outcome,
    ProtocolError,
    Start,
    Step,
    Stop,
    frame,
    parse_claim,
    parse_step,
)
from sandbox.interface import Limits, Payload, SandboxRun, TestInput

STARTUP_GRACE = 5.0  # the container and the interpreter starting, on top of the first step
REPLY_GRACE = 1.0  # the supervisor's record after the learner's limit ran out
AHEAD = 16  # test frames that may wait behind the test running (bleu_1gram's 68 tests at a
# learner's pace: 25.6 ms with one, 21.3 with three, 19.5 with eight, 18.1 with sixteen)
AHEAD_BYTES = 32 * 1024  # the frames waiting, in all; the supervisor's pipe holds 64 KiB


class StreamEnded(Exception):
    """The container's output ended before the record the host was waiting for."""


class Channel(Protocol):
    def send(self, data: bytes) -> None: ...

    def next_line(self, deadline: float) -> bytes | None:
        """The next line of the supervisor's stdout; None once ``deadline`` (monotonic) passes;
        StreamEnded when the stream is over; ProtocolError for a line past the cap."""
        ...

    def killed_for_memory(self) -> bool:
        """After StreamEnded: whether the container was killed for using too much memory."""
        ...


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _limit_words(seconds: float) -> str:
    return f"each test may take {seconds:g} s"


def _wall_words(limits: Limits) -> str:
    return (f"the submission's time ran out: running its tests and checking their values may take "
            f"{limits.time_per_submission:g} s in all")


def decide(step: Step, seconds: float, payload: Payload, test: TestInput | None) -> CallResult:
    """How a step ended. Raises ProtocolError when the learner's claim breaks the protocol."""
    limits = payload.limits
    # Loading the module also waits for the container and the interpreter to start.
    allowed = limits.time_per_test + (STARTUP_GRACE if step.kind is Kind.IMPORT else 0.0)
    if step.stop is Stop.TIMEOUT or seconds > allowed or step.signal == signal.SIGXCPU:
        return CallResult(Outcome.TIMEOUT, stdout=step.stdout, seconds=seconds,
                          detail=f"stopped after {seconds:.2f} s: {_limit_words(limits.time_per_test)}")
    if step.stop is Stop.OUTPUT_LIMIT:
        return CallResult(Outcome.OUTPUT_LIMIT, stdout=step.stdout, seconds=seconds,
                          detail=f"the call printed more than {limits.stdout_bytes} bytes")
    if step.stop is Stop.MEMORY:
        return CallResult(Outcome.MEMORY, stdout=step.stdout, seconds=seconds,
                          detail=f"the call used more than {limits.memory_mb} MB of memory")
    if step.stop is Stop.CLAIM_TOO_LARGE:
        raise ProtocolError("the result is larger than the 4 MiB a result may have")
    if step.stop is Stop.CLAIM_MALFORMED:
        raise ProtocolError("the result's frame is broken (its length line, or more than one "
                            "result for one call)")
    if step.claim is None:
        if step.signal == signal.SIGKILL:  # only the kernel's OOM killer sends it unasked
            return CallResult(Outcome.MEMORY, stdout=step.stdout, seconds=seconds,
                              detail=f"the process was killed, most likely for using more than "
                                     f"{limits.memory_mb} MB of memory")
        if step.signal == signal.SIGXFSZ:
            return CallResult(Outcome.OUTPUT_LIMIT, stdout=step.stdout, seconds=seconds,
                              detail=f"a file grew past {limits.file_size_bytes} bytes")
        how = (f"was killed by {_signal_name(step.signal)}" if step.signal is not None
               else f"exited with status {step.exit_code}")
        return CallResult(Outcome.CRASHED, stdout=step.stdout, seconds=seconds,
                          detail=f"the process {how} before returning")
    n_args = len(test.args) if test else 0
    names = frozenset(test.kwargs) if test else frozenset()
    result = parse_claim(step.claim, step.kind, n_args, names,
                         test.args if test else None, test.kwargs if test else None)
    result.stdout, result.seconds = step.stdout, seconds
    if result.outcome is Outcome.MEMORY:
        result.detail = f"MemoryError: the call used more than {limits.memory_mb} MB of memory"
    return result


def _await(channel: Channel, payload: Payload, kind: Kind, seq: int | None,
           test: TestInput | None, sent: float, deadline: float, wall: float
           ) -> tuple[CallResult, bool, bool]:
    """(the step's result, whether the run must stop here, whether the learner process must be
    replaced before the next test: its claim broke the protocol)."""
    try:
        line = channel.next_line(deadline)
    except ProtocolError as exc:
        return CallResult(Outcome.CRASHED, seconds=round(time.monotonic() - sent, 4),
                          detail=f"the result could not be accepted: {exc}"), True, False
    except StreamEnded:
        # Under gVisor the whole sandbox is what runs out of memory; anything else that ends the
        # stream early is the judge's failure, not the learner's.
        if not channel.killed_for_memory():
            raise
        return CallResult(Outcome.MEMORY, seconds=round(time.monotonic() - sent, 4), detail=(
            f"the sandbox ran out of memory ({payload.limits.memory_mb} MB)")), True, False
    seconds = round(time.monotonic() - sent, 4)
    if line is None:
        limit = (_wall_words(payload.limits) if deadline >= wall
                 else _limit_words(payload.limits.time_per_test))
        return CallResult(Outcome.TIMEOUT, seconds=seconds, detail=(
            f"stopped by the host's clock after {seconds:.2f} s: {limit}")), True, False
    try:
        step = parse_step(line, kind, seq)
    except ProtocolError as exc:  # the supervisor's own record: nothing after it is trusted
        return CallResult(Outcome.CRASHED, seconds=seconds,
                          detail=f"the result could not be accepted: {exc}"), True, False
    try:
        result = decide(step, seconds, payload, test)
    except ProtocolError as exc:  # the learner's claim: that test fails, a fresh process goes on
        return CallResult(Outcome.CRASHED, stdout=step.stdout, seconds=seconds, memory=step.memory,
                          detail=f"the result could not be accepted: {exc}"), kind is Kind.IMPORT, True
    result.memory = step.memory
    return result, result.outcome is Outcome.TIMEOUT, False


def converse(channel: Channel, payload: Payload, started: float) -> SandboxRun:
    """Drive one container through the protocol; every step's result, as the host decided it."""
    limits = payload.limits
    wall = started + limits.time_per_submission
    start = Start(payload.code, payload.function, limits.time_per_test,
                  limits.memory_mb * 1024 * 1024, limits.stdout_bytes,
                  limits.time_per_submission + STARTUP_GRACE, payload.isolation)
    channel.send(frame(start.as_json()))
    sent = time.monotonic()
    loaded, stop, _ = _await(channel, payload, Kind.IMPORT, None, None, sent,
                          min(wall, sent + limits.time_per_test + STARTUP_GRACE), wall)
    run = SandboxRun(loaded, [])
    if loaded.outcome is Outcome.RETURNED:
        stop = _Tests(channel, payload, wall, run).run()
    if not stop:
        # No more tests: the supervisor ends every learner process, then waits for the host to
        # close the stream, which the owner may put off until the verdict is stored.
        channel.send(frame(None))
        run.finished = True
    run.seconds = round(time.monotonic() - started, 4)
    return run


class _Tests:
    """The tests of one run, each test's frame sent while the test before it runs.

    The supervisor takes the next frame the moment it has sent a record, so the trip of a record
    to the host, the host's checking of its value and the trip of the next frame no longer come
    between two tests (bleu_1gram's 68 tests back to back: 36 ms one at a time, 22 ms with one
    frame waiting; at a learner's pace, when every hop between the processes wakes one that
    slept, 25.6 ms with one and 18.1 with ``AHEAD``). A test's time, on the host's clock, runs
    from the later of its frame's sending and the record before it coming in, to its own record
    coming in. The frames waiting behind the test running are at most ``AHEAD``, of at most
    ``AHEAD_BYTES`` in all, so that they always fit in the supervisor's pipe and the host never
    blocks sending one while the supervisor blocks sending a record (the running test's frame,
    however large, the supervisor has read whole before it runs the test); and never the first
    hidden test's while a shown one runs (``Payload.shown``).

    A frame ahead is a test the supervisor starts whatever the record before it says: after a
    time-out or a broken supervisor record the run ends anyway (its container or jail goes with
    the frames), and after a claim the host refused, the tests ahead ran in the process that made
    it: their records are read and set aside, and those tests go again, after ``FRESH``, to a
    fresh process. Should a set-aside test end the run (a time-out), its result is the test's.
    """

    def __init__(self, channel: Channel, payload: Payload, wall: float, run: SandboxRun) -> None:
        self.channel, self.payload, self.wall, self.outcome = channel, payload, wall, run
        self.wire = 0  # the supervisor's count of the test frames it has taken
        self.next = 0  # the position of the next test to send
        self.ahead: deque[tuple[int, float]] = deque()  # sent, not answered: position, when sent
        self.fresh = False  # a FRESH frame goes before the next test's
        # After a claim the host refused, one frame at most waits: each refusal throws away the
        # tests ahead, and a submission whose every claim is refused ran 68 tests in 650 ms
        # with sixteen waiting, 180 ms with one.
        self.depth = AHEAD
        self.previous = time.monotonic()  # when the last record came in

    def run(self) -> bool:
        """Run every test that may run; whether the run must stop here (not finished)."""
        tests, limits = self.payload.tests, self.payload.limits
        while True:
            self._send_ahead()
            if not self.ahead and self.next == len(tests):
                return False
            if not self.ahead or time.monotonic() >= self.wall:
                # The host's checking of the values so far used up the wall clock: the next
                # test is not sent, and those sent ahead go with the run, as a time-out's do.
                self.outcome.results.append(CallResult(Outcome.TIMEOUT, seconds=0.0,
                                                       detail=_wall_words(limits)))
                return True
            position, sent = self.ahead.popleft()
            result, stop, fresh = self._answer(position, sent)
            self._keep(position, result)
            if stop or (fresh and self._set_aside()):
                return True

    def _send_ahead(self) -> None:
        """Top up the frames waiting, once they are down to half the depth, in one send: the
        host, dockerd, the shim and the supervisor each wake once for several frames, not once
        a test (bleu_1gram's 68 tests: 9 sends, where there were 68)."""
        if len(self.ahead) > max(1, self.depth // 2):
            return
        tests = self.payload.tests
        batch: list[bytes] = []
        while self.next < len(tests) and len(self.ahead) <= self.depth and (
                not self.ahead or (self._waiting_bytes() + len(tests[self.next].frame) <= AHEAD_BYTES
                                   and self.next != self.payload.shown)):
            now = time.monotonic()
            if now >= self.wall:
                break
            if self.fresh:
                batch.append(frame(FRESH))
                self.fresh = False
            batch.append(tests[self.next].frame)
            self.ahead.append((self.next, now))
            self.next += 1
        if batch:
            self.channel.send(b"".join(batch))

    def _waiting_bytes(self) -> int:
        """The bytes of the frames sent behind the test running (the first in ``ahead``)."""
        return sum(len(self.payload.tests[position].frame) for position, _ in list(self.ahead)[1:])

    def _answer(self, position: int, sent: float) -> tuple[CallResult, bool, bool]:
        begun = max(sent, self.previous)
        deadline = min(self.wall, begun + self.payload.limits.time_per_test + REPLY_GRACE)
        answer = _await(self.channel, self.payload, Kind.TEST, self.wire,
                        self.payload.tests[position], begun, deadline, self.wall)
        self.wire += 1
        self.previous = time.monotonic()
        return answer

    def _set_aside(self) -> bool:
        """After a claim the host refused: the tests ahead ran in the process that made it. Read
        their records and send those tests again, after FRESH. Whether one of them ended the run
        (then its result is kept)."""
        self.fresh = True
        self.depth = 1
        if self.ahead:
            self.next = self.ahead[0][0]
        while self.ahead:
            position, sent = self.ahead.popleft()
            result, stop, _ = self._answer(position, sent)
            if stop:
                self._keep(position, result)
                return True
        return False

    def _keep(self, position: int, result: CallResult) -> None:
        self.outcome.results.append(result)
        if self.payload.on_result is not None:
            self.payload.on_result(position, result)
