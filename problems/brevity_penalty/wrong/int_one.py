# verdict: wrong_answer
# Mistake: returns the integer 1 when there is no penalty; the result must be a float.
import math


def brevity_penalty(candidate_length, reference_length):
    if candidate_length == 0:
        return 0.0
    if candidate_length >= reference_length:
        return 1
    return math.exp(1 - reference_length / candidate_length)
