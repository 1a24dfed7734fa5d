def precision_at_k(ranking: list[str], relevant: list[str], k: int) -> float:
    """Return the number of distinct relevant ids among the first k of `ranking`, divided by k.

    Always divide by k: a ranking shorter than k counts its missing positions as misses, and an
    id listed twice in the window is one hit. An empty `relevant` gives 0.0. k < 1 raises
    ValueError. Do not modify the arguments.
    """
    raise NotImplementedError
