# verdict: wrong_answer
# Mistake: always compares unigrams, whatever n is.
import unicodedata
from collections import Counter


def _tokens(text):
    tokens, current = [], []
    for ch in text.lower():
        if unicodedata.category(ch)[0] in "LN":
            current.append(ch)
        elif current:
            tokens.append("".join(current))
            current = []
    if current:
        tokens.append("".join(current))
    return tokens


def rouge_n(output, expected, n):
    if n < 1:
        raise ValueError("n must be at least 1")
    a, b = Counter(_tokens(output)), Counter(_tokens(expected))
    m, r = sum(a.values()), sum(b.values())
    if m < n or r < n:
        return 0.0
    return 2 * sum((a & b).values()) / (m + r)
