"""Reference solution for brier_score: the mean squared error of probability forecasts."""


def brier_score(outcomes: list[int], probabilities: list[float]) -> float:
    if len(outcomes) != len(probabilities):
        raise ValueError("outcomes and probabilities must have the same length")
    if not outcomes:
        raise ValueError("the Brier score of no forecasts is undefined")
    total = 0.0
    for index, (outcome, probability) in enumerate(zip(outcomes, probabilities)):
        if outcome not in (0, 1):
            raise ValueError(f"outcome {index} is {outcome!r}, not 0 or 1")
        # Written as a negated range test so that NaN is refused too.
        if not 0.0 <= probability <= 1.0:
            raise ValueError(f"probability {index} is {probability!r}, outside [0, 1]")
        total += (probability - outcome) ** 2
    return total / len(outcomes)
