# verdict: wrong_answer
# Mistake: tests c >= r before the empty candidate, so (0, 0) returns 1.0 instead of 0.0.
import math


def brevity_penalty(candidate_length, reference_length):
    if candidate_length >= reference_length:
        return 1.0
    if candidate_length == 0:
        return 0.0
    return math.exp(1 - reference_length / candidate_length)
