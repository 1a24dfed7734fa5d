# problem: bleu_1gram
# verdict: wrong_answer
# under-shared: accepted; the daemon is killed after the first test, but the file it left stays in the /tmp the submission's tests share
# gvisor-isolations: shared, per_test
# attack: forks a double-forked daemon that recreates a /tmp file every millisecond, racing the cleanup; later tests look for the file
# max-seconds: 20
import contextlib
import math
import os
import time
from collections import Counter


def _leave_state():
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            while True:
                with contextlib.suppress(OSError):
                    open("/tmp/daemon-state", "w").close()
                time.sleep(0.001)
        os._exit(0)
    time.sleep(0.1)


def _state_found():
    return os.path.exists("/tmp/daemon-state")


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
