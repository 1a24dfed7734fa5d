# verdict: wrong_answer
# Mistake: applies the formula to every non-empty candidate, so a longer candidate gets a
# "penalty" above 1.
import math


def brevity_penalty(candidate_length, reference_length):
    if candidate_length == 0:
        return 0.0
    return math.exp(1 - reference_length / candidate_length)
