def ndcg_at_k(relevances: list[float], k: int) -> float:
    """Return nDCG@k of a ranking given the graded relevance of each result, in ranked order.

    DCG@k sums relevances[i] / log2(i + 2) over the first k positions (i from 0); the ideal DCG
    is the same sum over the relevances sorted from highest to lowest. The score is DCG / IDCG,
    0.0 when IDCG is 0. k < 1 or a negative relevance raises ValueError.
    """
    raise NotImplementedError
