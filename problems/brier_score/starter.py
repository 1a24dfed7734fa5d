def brier_score(outcomes: list[int], probabilities: list[float]) -> float:
    """Return the mean squared gap between each forecast probability and its 0/1 outcome.

    Raise ValueError when the lists differ in length, are empty, a probability lies outside
    [0, 1] (NaN included) or an outcome is neither 0 nor 1. Do not modify the arguments.
    """
    raise NotImplementedError
