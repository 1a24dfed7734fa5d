# problem: bleu_1gram
# verdict: wrong_answer
# under-shared: accepted; the module is loaded once per submission, so its globals, builtins, sys.modules and environment are shared by its tests, as in every function judge; nothing passes to the next submission
# gvisor-isolations: shared, per_test
# attack: keeps state in module globals, builtins, sys.modules, os.environ and standard modules the spawner loaded ahead (unicodedata, statistics) in the first test; later tests look for it
# max-seconds: 20
import builtins
import math
import os
import statistics
import sys
import types
import unicodedata
from collections import Counter

_CALLS = []


def _leave_state():
    _CALLS.append(1)
    builtins.carried_state = True
    sys.modules["carried_state"] = types.ModuleType("carried_state")
    os.environ["CARRIED_STATE"] = "1"
    unicodedata.carried_state = statistics.carried_state = True


def _state_found():
    return bool(_CALLS) or hasattr(builtins, "carried_state") or "carried_state" in sys.modules \
        or "CARRIED_STATE" in os.environ or hasattr(unicodedata, "carried_state") \
        or hasattr(statistics, "carried_state")


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
