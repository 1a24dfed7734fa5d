"""Reference solution for mean_reciprocal_rank: the mean of each query's 1 / first relevant rank."""


def mean_reciprocal_rank(rankings: list[list[str]], relevant: list[list[str]]) -> float:
    if not rankings:
        raise ValueError("there are no queries")
    if len(rankings) != len(relevant):
        raise ValueError(f"{len(rankings)} rankings but {len(relevant)} relevant lists")
    total = 0.0
    for ranking, wanted in zip(rankings, relevant):
        targets = set(wanted)
        for rank, document in enumerate(ranking, start=1):
            if document in targets:
                total += 1 / rank
                break
    return total / len(rankings)
