"""Reference solution for rouge_l_f1: Unicode word tokens, LCS by dynamic programming, F1."""

import unicodedata


def _tokens(text: str) -> list[str]:
    """Lowercase, then keep maximal runs of Unicode letters (L*) and numbers (N*)."""
    tokens = []
    current = []
    for ch in text.lower():
        if unicodedata.category(ch)[0] in "LN":
            current.append(ch)
        elif current:
            tokens.append("".join(current))
            current = []
    if current:
        tokens.append("".join(current))
    return tokens


def _lcs_length(a: list[str], b: list[str]) -> int:
    if len(b) > len(a):
        a, b = b, a
    previous = [0] * (len(b) + 1)
    for x in a:
        current = [0]
        left = 0
        for j, y in enumerate(b):
            if x == y:
                left = previous[j] + 1
            elif previous[j + 1] > left:
                left = previous[j + 1]
            current.append(left)
        previous = current
    return previous[-1]


def rouge_l_f1(output: str, expected: str) -> float:
    out_tokens = _tokens(output)
    exp_tokens = _tokens(expected)
    if not out_tokens or not exp_tokens:
        return 0.0
    lcs = _lcs_length(out_tokens, exp_tokens)
    if lcs == 0:
        return 0.0
    return 2 * lcs / (len(out_tokens) + len(exp_tokens))
