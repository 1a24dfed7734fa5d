# verdict: wrong_answer
# Mistake: splits on whitespace and keeps case and punctuation.
from collections import Counter


def rouge_n(output, expected, n):
    if n < 1:
        raise ValueError("n must be at least 1")
    a, b = output.split(), expected.split()
    ours = Counter(tuple(a[i:i + n]) for i in range(len(a) - n + 1))
    theirs = Counter(tuple(b[i:i + n]) for i in range(len(b) - n + 1))
    m, r = sum(ours.values()), sum(theirs.values())
    if m == 0 or r == 0:
        return 0.0
    return 2 * sum((ours & theirs).values()) / (m + r)
