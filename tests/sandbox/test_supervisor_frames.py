"""The supervisor's reading of the host's frames (``harness._read_header``/``_read_body``): read
ahead in chunks, they give exactly the frames that were sent, however the stream is cut, and
refuse a malformed count."""

from __future__ import annotations

import os
import random
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from sandbox.inside import harness


@contextmanager
def _stream(data: bytes, rng: random.Random) -> Iterator[int]:
    """A pipe carrying data in pieces of random sizes, as a socket may deliver it."""
    read_end, write_end = os.pipe()

    def feed() -> None:
        sent = 0
        while sent < len(data):
            piece = rng.choice([1, 2, 7, 100, 5_000, 100_000])
            os.write(write_end, data[sent:sent + piece])
            sent += piece
        os.close(write_end)

    writer = threading.Thread(target=feed)
    harness._ahead.clear()
    writer.start()
    try:
        yield read_end
    finally:
        writer.join()
        os.close(read_end)
        harness._ahead.clear()


def test_frames_come_back_as_sent_however_the_stream_is_cut() -> None:
    rng = random.Random(20261205)
    bodies = [rng.randbytes(rng.choice([0, 1, 5, 100, 70_000, 300_000])) for _ in range(60)]
    data = b"".join(str(len(body)).encode() + b"\n" + body for body in bodies)
    received = []
    buffer = bytearray()
    with _stream(data, rng) as fd:
        while (size := harness._read_header(fd)) is not None:
            body = harness._read_body(fd, size, buffer)
            received.append(body.tobytes())
            body.release()
    assert received == bodies


@pytest.mark.parametrize("count", [b"12a\n", b"\n", b"-1\n", b"1234567890123\n", b"9" * 20])
def test_a_malformed_count_is_refused(count: bytes) -> None:
    with _stream(count, random.Random(1)) as fd, pytest.raises(SystemExit, match="malformed"):
        harness._read_header(fd)


def test_a_stream_that_ends_inside_a_frame_is_refused() -> None:
    with _stream(b"10\nabc", random.Random(1)) as fd, pytest.raises(SystemExit, match="inside a frame"):
        harness._read_body(fd, harness._read_header(fd) or 0, bytearray())
