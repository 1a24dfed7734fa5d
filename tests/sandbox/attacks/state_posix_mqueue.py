# problem: bleu_1gram
# verdict: wrong_answer
# attack: creates a POSIX message queue (a file in /dev/mqueue, which the container mounts world-writable) in the first test; later tests look for it
# max-seconds: 20
import contextlib
import math
import os
from collections import Counter


def _leave_state():
    with contextlib.suppress(OSError):
        os.close(os.open("/dev/mqueue/carried", os.O_CREAT | os.O_RDWR, 0o666))


def _state_found():
    try:
        return "carried" in os.listdir("/dev/mqueue")
    except OSError:
        return False


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
