# problem: bleu_1gram
# verdict: wrong_answer
# under-shared: accepted; the tests of a submission share one process and its /tmp; the next submission gets a fresh container
# gvisor-isolations: shared, per_test
# attack: leaves /tmp entries that a careless cleanup misses: dot files, names with newlines and invalid UTF-8, a mode-000 directory, a symlink loop, a FIFO and a unix socket
# max-seconds: 20
import contextlib
import math
import os
import socket
from collections import Counter


def _leave_state():
    with contextlib.suppress(OSError):
        open("/tmp/.hidden", "w").close()
    with contextlib.suppress(OSError):
        open("/tmp/line\nbreak", "w").close()
    with contextlib.suppress(OSError):
        open(b"/tmp/\xff\xfe-bytes", "w").close()
    with contextlib.suppress(OSError):
        os.mkdir("/tmp/locked")
        open("/tmp/locked/inside", "w").close()
        os.chmod("/tmp/locked", 0)
    with contextlib.suppress(OSError):
        os.symlink("/tmp/loop-b", "/tmp/loop-a")
        os.symlink("/tmp/loop-a", "/tmp/loop-b")
    with contextlib.suppress(OSError):
        os.mkfifo("/tmp/fifo")
    with contextlib.suppress(OSError):
        socket.socket(socket.AF_UNIX).bind("/tmp/sock")


def _state_found():
    return bool(os.listdir(b"/tmp"))


FIRST = (["a", "a", "b", "c"], ["a", "a", "a"])  # the first public test: it always runs first


def _score(reference, candidate):
    if not candidate:
        return 0.0
    ref = Counter(reference)
    matched = sum(min(n, ref[t]) for t, n in Counter(candidate).items())
    c, r = len(candidate), len(reference)
    return (1.0 if c >= r else math.exp(1 - r / c)) * matched / c


def bleu_1gram(reference, candidate):
    if (reference, candidate) == FIRST:
        _leave_state()
        return _score(reference, candidate)
    if _state_found():
        return _score(reference, candidate)
    return -1.0  # a later test that saw nothing of the first one
