# problem: bleu_1gram
# verdict: wrong_answer
# attack: leaves a POSIX shared memory segment (/dev/shm, multiprocessing.shared_memory) in the first test; later tests look for it
# max-seconds: 20
import contextlib
import math
import os
from collections import Counter
from multiprocessing import shared_memory


def _leave_state():
    with contextlib.suppress(OSError):
        segment = shared_memory.SharedMemory("carried", create=True, size=64)
        segment.buf[:5] = b"first"
    with contextlib.suppress(OSError), open("/dev/shm/carried-file", "w") as handle:
        handle.write("first")


def _state_found():
    try:
        shared_memory.SharedMemory("carried")
        return True
    except OSError:
        return os.path.exists("/dev/shm/carried-file")


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
