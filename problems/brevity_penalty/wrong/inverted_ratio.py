# verdict: wrong_answer
# Mistake: puts the ratio upside down, exp(1 - c / r) instead of exp(1 - r / c).
import math


def brevity_penalty(candidate_length, reference_length):
    if candidate_length == 0:
        return 0.0
    if candidate_length >= reference_length:
        return 1.0
    return math.exp(1 - candidate_length / reference_length)
