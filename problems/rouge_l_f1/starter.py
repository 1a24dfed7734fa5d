def rouge_l_f1(output: str, expected: str) -> float:
    """Return the ROUGE-L F1 (beta = 1) of `output` against `expected`.

    Lowercase each text and split it into tokens: maximal runs of Unicode letters and numbers;
    every other character separates tokens. Find the length of the longest common subsequence
    of the two token lists, then precision = LCS / output tokens, recall = LCS / expected
    tokens, and return their harmonic mean as a float. Either side without tokens scores 0.0.
    """
    raise NotImplementedError
