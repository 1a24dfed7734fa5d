# verdict: wrong_answer
# Mistake: clips at 1e-15 (an old default) instead of the float epsilon, 2 ** -52.
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
        p = min(max(p, 1e-15), 1 - 1e-15)
        total -= math.log(p) if o == 1 else math.log(1 - p)
    return total / len(outcomes)
