# verdict: wrong_answer
# Mistake: uses integer division r // c, which truncates the length ratio.
import math


def brevity_penalty(candidate_length, reference_length):
    if candidate_length == 0:
        return 0.0
    if candidate_length >= reference_length:
        return 1.0
    return math.exp(1 - reference_length // candidate_length)
