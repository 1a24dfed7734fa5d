def log_loss(outcomes: list[int], probabilities: list[float]) -> float:
    """Return the mean negative natural logarithm of the probability each forecast gave to the
    outcome that happened.

    Raise ValueError when the lists differ in length, are empty, a probability lies outside
    [0, 1] (NaN included), an outcome is neither 0 nor 1, or a forecast gave probability
    exactly 0 to what happened (its loss would be infinite). Do not modify the arguments.
    """
    raise NotImplementedError
