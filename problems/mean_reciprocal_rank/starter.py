def mean_reciprocal_rank(rankings: list[list[str]], relevant: list[list[str]]) -> float:
    """Return the mean over queries of 1 / (rank of the first relevant document).

    rankings[q] is query q's ranked list of document ids (best first); relevant[q] lists the ids
    that are relevant to it. Ranks start at 1. A query with no relevant id in its ranking adds 0.
    No queries, or lists of different lengths, raise ValueError.
    """
    raise NotImplementedError
