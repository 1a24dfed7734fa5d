def clipped_ngram_matches(reference: list[str], candidate: list[str], n: int) -> int:
    """Return the number of clipped n-gram matches of `candidate` against `reference`.

    An n-gram is a run of n consecutive tokens. For every distinct n-gram of the candidate,
    add min(its count in the candidate, its count in the reference). Raise ValueError when
    n < 1. Do not modify either list.
    """
    raise NotImplementedError
