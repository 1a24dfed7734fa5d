# problem: bleu_1gram
# verdict: wrong_answer
# under-shared: accepted; the tests of a submission share one process and its /tmp; the next submission gets a fresh container
# gvisor-isolations: shared, per_test
# attack: leaves a world-writable file in /tmp in the first test; later tests answer right only if they find it
# max-seconds: 20
import math
import os
from collections import Counter


def _leave_state():
    with open("/tmp/carried-state", "w") as handle:
        handle.write("first test was here")
    os.chmod("/tmp/carried-state", 0o666)


def _state_found():
    return os.path.exists("/tmp/carried-state")


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
