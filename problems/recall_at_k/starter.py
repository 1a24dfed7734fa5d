def recall_at_k(ranking: list[str], relevant: list[str], k: int) -> float:
    """Return the share of the distinct relevant ids found among the first k of `ranking`.

    An id listed twice in the ranking is found once. k < 1, or no relevant ids at all, raise
    ValueError.
    """
    raise NotImplementedError
