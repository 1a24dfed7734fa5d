"""Reference solution for recall_at_k: distinct relevant ids in the top k over all relevant ids."""


def recall_at_k(ranking: list[str], relevant: list[str], k: int) -> float:
    if k < 1:
        raise ValueError(f"k must be at least 1, not {k}")
    wanted = set(relevant)
    if not wanted:
        raise ValueError("there are no relevant ids")
    found = wanted.intersection(ranking[:k])
    return len(found) / len(wanted)
