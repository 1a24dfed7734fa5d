# verdict: wrong_answer
# Mistake: uses sets, so each distinct shared token counts once however many copies
# both sides hold.
import math


def bleu_1gram(reference, candidate):
    if not candidate:
        return 0.0
    matched = len(set(candidate) & set(reference))
    precision = matched / len(candidate)
    c, r = len(candidate), len(reference)
    penalty = 1.0 if c >= r else math.exp(1 - r / c)
    return penalty * precision
