# verdict: runtime_error
# Mistake: never clips, so a certain wrong forecast reaches math.log(0), which raises.
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
        total -= math.log(p) if o == 1 else math.log(1 - p)
    return total / len(outcomes)
