def expected_calibration_error(outcomes: list[int], probabilities: list[float], bins: int) -> float:
    """Return the expected calibration error of the forecasts over `bins` equal-width bins of
    [0, 1]: probability p goes to bin min(int(p * bins), bins - 1); each non-empty bin adds its
    share of the forecasts times the gap between its fraction of outcomes 1 and its mean
    probability.

    Raise ValueError when bins < 1, the lists differ in length, are empty, a probability lies
    outside [0, 1] (NaN included) or an outcome is neither 0 nor 1. Do not modify the arguments.
    """
    raise NotImplementedError
