def average_precision(ranking: list[str], relevant: list[str]) -> float:
    """Return the average precision of `ranking` against the relevant ids.

    At each rank k (from 1) where a relevant id appears for the first time, take the precision
    of the top k; sum these and divide by the number of distinct relevant ids. An empty
    `relevant` raises ValueError.
    """
    raise NotImplementedError
