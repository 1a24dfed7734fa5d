def word_error_rate(reference: str, hypothesis: str) -> float:
    """Return the word error rate of `hypothesis` against `reference`.

    Both are split into words with str.split(). The rate is the smallest number of word
    substitutions, deletions and insertions that turn the reference into the hypothesis, divided
    by the number of reference words. An empty reference (no words) raises ValueError.
    """
    raise NotImplementedError
