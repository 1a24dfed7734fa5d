def roc_auc(outcomes: list[int], scores: list[float]) -> float:
    """Return the probability that a randomly chosen positive (outcome 1) has a higher score
    than a randomly chosen negative (outcome 0), a tie counting one half.

    Raise ValueError when the lists differ in length, an outcome is neither 0 nor 1, a score is
    NaN, or there is no positive or no negative outcome (empty lists included). Do not modify
    the arguments.
    """
    raise NotImplementedError
