# problem: bleu_1gram
# verdict: wrong_answer
# attack: mutates the lists and "restores" them in a finally with str-subclass copies that compare equal from inside but are not the caller's strings
# max-seconds: 15
import math
from collections import Counter


class Token(str):
    pass


def bleu_1gram(reference, candidate):
    saved = (list(reference), list(candidate))
    try:
        reference.sort()
        candidate.reverse()
        if not candidate:
            return 0.0
        ref = Counter(reference)
        matched = sum(min(n, ref[t]) for t, n in Counter(candidate).items())
        c, r = len(candidate), len(reference)
        return (1.0 if c >= r else math.exp(1 - r / c)) * matched / c
    finally:
        reference[:] = [Token(t) for t in saved[0]]
        candidate[:] = [Token(t) for t in saved[1]]
