def matthews_corrcoef(gold: list[int], predicted: list[int]) -> float:
    """Return the Matthews correlation coefficient of binary predictions (labels 0 and 1).

    From the counts TP, TN, FP, FN: (TP*TN - FP*FN) / sqrt((TP+FP)(TP+FN)(TN+FP)(TN+FN)), and
    0.0 when that denominator is 0. Lists of different lengths, an empty list, or a label other
    than 0 or 1 raise ValueError.
    """
    raise NotImplementedError
