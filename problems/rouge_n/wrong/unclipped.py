# verdict: wrong_answer
# Mistake: counts every output n-gram found in the expected text, without clipping.
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
    a, b = _tokens(output), _tokens(expected)
    ours = [tuple(a[i:i + n]) for i in range(len(a) - n + 1)]
    theirs = [tuple(b[i:i + n]) for i in range(len(b) - n + 1)]
    if not ours or not theirs:
        return 0.0
    overlap = min(sum(1 for g in ours if g in theirs), len(theirs))
    return 2 * overlap / (len(ours) + len(theirs))
