# verdict: wrong_answer
# Mistake: uses the base-10 logarithm instead of the natural one.
import math


def log_loss(outcomes, probabilities):
    if len(outcomes) != len(probabilities):
        raise ValueError("lengths differ")
    if not outcomes:
        raise ValueError("no forecasts")
    total = 0.0
    for o, p in zip(outcomes, probabilities, strict=True):
        if o not in (0, 1):
            raise ValueError("outcome not 0 or 1")
        if not 0.0 <= p <= 1.0:
            raise ValueError("probability outside [0, 1]")
        q = p if o == 1 else 1 - p
        if q == 0:
            raise ValueError("infinite loss")
        total -= math.log10(q)
    return total / len(outcomes)
