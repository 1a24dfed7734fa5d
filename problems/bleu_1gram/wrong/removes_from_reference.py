# verdict: wrong_answer
# Mistake: clips by removing matched tokens from the caller's reference list. The score is
# right, but the argument is changed, which the rules forbid.
import math


def bleu_1gram(reference, candidate):
    if not candidate:
        return 0.0
    c, r = len(candidate), len(reference)
    matched = 0
    for token in candidate:
        if token in reference:
            reference.remove(token)
            matched += 1
    precision = matched / c
    penalty = 1.0 if c >= r else math.exp(1 - r / c)
    return penalty * precision
