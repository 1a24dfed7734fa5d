# problem: bleu_1gram
# verdict: wrong_answer
# attack: a correct score computed after sorting the caller's lists in place, with no forgery: the changed arguments must be caught
# max-seconds: 15
import math
from collections import Counter


def bleu_1gram(reference, candidate):
    reference.sort(reverse=True)
    candidate.sort(reverse=True)
    if not candidate:
        return 0.0
    ref = Counter(reference)
    matched = sum(min(n, ref[t]) for t, n in Counter(candidate).items())
    c, r = len(candidate), len(reference)
    penalty = 1.0 if c >= r else math.exp(1 - r / c)
    return penalty * matched / c
