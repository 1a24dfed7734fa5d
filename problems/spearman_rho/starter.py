def spearman_rho(x: list[float], y: list[float]) -> float | None:
    """Return Spearman's rank correlation of two paired samples.

    Rank each list (1 for the smallest; tied values share the average of the ranks they span),
    then return the Pearson correlation of the two rank lists. None when either list is constant
    (the correlation is undefined). Lists of different lengths, or fewer than 2 pairs, raise
    ValueError.
    """
    raise NotImplementedError
