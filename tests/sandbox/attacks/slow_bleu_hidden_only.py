# problem: bleu_1gram
# verdict: time_limit_exceeded
# attack: correct on the public tests, then spins on every hidden test (detected by the uid, which grows with the test number, or by its own count of calls)
# max-seconds: 12
import math
import os
from collections import Counter


_CALLS = []


def bleu_1gram(reference, candidate):
    _CALLS.append(1)
    # A fresh process per test has the uid 20000 + its position; a shared one counts its calls.
    position = len(_CALLS) if os.getuid() == 20000 else os.getuid() - 20000
    if position > 8:
        while True:
            pass
    if not candidate:
        return 0.0
    ref = Counter(reference)
    matched = sum(min(n, ref[t]) for t, n in Counter(candidate).items())
    c, r = len(candidate), len(reference)
    return (1.0 if c >= r else math.exp(1 - r / c)) * matched / c
