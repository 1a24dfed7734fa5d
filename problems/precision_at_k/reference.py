"""Reference solution for precision_at_k: distinct relevant ids in the top k, divided by k."""


def precision_at_k(ranking: list[str], relevant: list[str], k: int) -> float:
    if k < 1:
        raise ValueError(f"k must be at least 1, not {k}")
    # Distinct ids on both sides: a relevant id listed twice in the window is one hit. The
    # denominator is k even when the ranking is shorter: missing positions are misses.
    found = set(relevant).intersection(ranking[:k])
    return len(found) / k
