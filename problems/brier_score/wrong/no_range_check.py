# verdict: wrong_answer
# Mistake: never checks that the probabilities lie in [0, 1].
def brier_score(outcomes, probabilities):
    if len(outcomes) != len(probabilities):
        raise ValueError("lengths differ")
    if not outcomes:
        raise ValueError("no forecasts")
    for o in outcomes:
        if o not in (0, 1):
            raise ValueError("outcome not 0 or 1")
    return sum((p - o) ** 2 for o, p in zip(outcomes, probabilities)) / len(outcomes)
