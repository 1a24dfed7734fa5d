# verdict: wrong_answer
# Mistake: takes the square root of the mean (the root mean squared error).
import math


def brier_score(outcomes, probabilities):
    if len(outcomes) != len(probabilities):
        raise ValueError("lengths differ")
    if not outcomes:
        raise ValueError("no forecasts")
    for o, p in zip(outcomes, probabilities):
        if o not in (0, 1):
            raise ValueError("outcome not 0 or 1")
        if not 0.0 <= p <= 1.0:
            raise ValueError("probability outside [0, 1]")
    return math.sqrt(sum((p - o) ** 2 for o, p in zip(outcomes, probabilities)) / len(outcomes))
