# verdict: runtime_error
# Mistake: forgets the empty candidate, so the formula divides by zero.
import math


def brevity_penalty(candidate_length, reference_length):
    if candidate_length > reference_length:
        return 1.0
    return math.exp(1 - reference_length / candidate_length)
