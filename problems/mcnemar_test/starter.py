def mcnemar_test(only_a: int, only_b: int) -> float:
    """Return the exact two-sided McNemar p-value for the discordant counts: only_a items that
    only model A got right, only_b items that only model B got right. Under the null hypothesis
    each discordant item is a fair coin flip: the p-value is twice the binomial(n, 1/2)
    probability of a count at most min(only_a, only_b), capped at 1.0 (and 1.0 when both are 0).

    Raise ValueError when a count is negative.
    """
    raise NotImplementedError
