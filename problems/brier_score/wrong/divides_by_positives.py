# verdict: wrong_answer
# Mistake: divides by the number of positive outcomes instead of by the number of forecasts.
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
    positives = sum(outcomes) or 1
    return sum((p - o) ** 2 for o, p in zip(outcomes, probabilities)) / positives
