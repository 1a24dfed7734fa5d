"""Reference solution for average_precision: precision at each new relevant hit, over all relevant."""


def average_precision(ranking: list[str], relevant: list[str]) -> float:
    wanted = set(relevant)
    if not wanted:
        raise ValueError("there are no relevant ids")
    seen: set[str] = set()
    total = 0.0
    for rank, document in enumerate(ranking, start=1):
        if document in wanted and document not in seen:
            seen.add(document)
            total += len(seen) / rank
    return total / len(wanted)
