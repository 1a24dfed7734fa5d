def rouge_n(output: str, expected: str, n: int) -> float:
    """Return ROUGE-N F1 between `output` and `expected`.

    Tokens: lowercase the text, then take maximal runs of Unicode letters and numbers. Count the
    n-grams of each side; the overlap of an n-gram is the smaller of its two counts. With o the
    total overlap and m, r the numbers of n-grams of output and expected, the score is
    2 * o / (m + r), and 0.0 when either side has no n-grams. n < 1 raises ValueError.
    """
    raise NotImplementedError
