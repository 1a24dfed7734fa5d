def char_error_rate(reference: str, hypothesis: str) -> float:
    """Return the character error rate of `hypothesis` against `reference`.

    Every code point counts, spaces included, and nothing is normalized. The rate is the
    smallest number of character substitutions, deletions and insertions that turn the
    reference into the hypothesis, divided by len(reference). An empty reference raises
    ValueError.
    """
    raise NotImplementedError
