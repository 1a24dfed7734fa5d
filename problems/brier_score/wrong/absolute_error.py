# verdict: wrong_answer
# Mistake: averages the absolute differences (the mean absolute error), not the squares.
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
    return sum(abs(p - o) for o, p in zip(outcomes, probabilities)) / len(outcomes)
