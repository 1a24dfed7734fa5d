# verdict: wrong_answer
# Mistake: every candidate token found in the reference counts, however often it repeats,
# so a repeated token earns more credit than the reference supports.
import math


def bleu_1gram(reference, candidate):
    if not candidate:
        return 0.0
    matched = sum(1 for token in candidate if token in reference)
    precision = matched / len(candidate)
    c, r = len(candidate), len(reference)
    penalty = 1.0 if c >= r else math.exp(1 - r / c)
    return penalty * precision
