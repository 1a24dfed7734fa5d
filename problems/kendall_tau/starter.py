def kendall_tau(x: list[float], y: list[float]) -> float | None:
    """Return Kendall's tau-b of two paired samples.

    Over all pairs of items i < j: concordant when x and y order them the same way, discordant
    when opposite; pairs tied in x or in y are neither. tau-b = (C - D) / sqrt((P - Tx) * (P - Ty))
    with P = n(n-1)/2 pairs, Tx the pairs tied in x and Ty the pairs tied in y. None when the
    denominator is 0. Lists of different lengths, or fewer than 2 pairs, raise ValueError.
    """
    raise NotImplementedError
