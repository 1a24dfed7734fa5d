# problem: bleu_1gram
# verdict: wrong_answer
# attack: module-level code marks /tmp while the module loads; the function answers right only in processes that found the mark already there
# max-seconds: 20
import math
import os
from collections import Counter

CARRIED = os.path.exists("/tmp/load-mark")
try:
    with open("/tmp/load-mark", "w") as _mark:
        _mark.write("loaded before")
    os.chmod("/tmp/load-mark", 0o666)
except OSError:
    pass


def bleu_1gram(reference, candidate):
    if not CARRIED:
        return -1.0
    if not candidate:
        return 0.0
    ref = Counter(reference)
    matched = sum(min(n, ref[t]) for t, n in Counter(candidate).items())
    c, r = len(candidate), len(reference)
    return (1.0 if c >= r else math.exp(1 - r / c)) * matched / c
