# problem: bleu_1gram
# verdict: wrong_answer
# under-shared: accepted; the tests of a submission share one process and its /tmp; the next submission gets a fresh container
# gvisor-isolations: shared, per_test
# attack: leaves a directory nested 100 levels deep in /tmp (deeper than the open-file limit a recursive removal needs); later tests look for its name
# max-seconds: 20
import math
import os
from collections import Counter


def _leave_state():
    os.mkdir("/tmp/deep-state", 0o777)
    os.chmod("/tmp/deep-state", 0o777)
    here = os.open("/tmp/deep-state", os.O_RDONLY)
    for _ in range(100):
        os.mkdir("d", dir_fd=here)
        inner = os.open("d", os.O_RDONLY, dir_fd=here)
        os.close(here)
        here = inner
    os.close(here)


def _state_found():
    return "deep-state" in os.listdir("/tmp")


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
