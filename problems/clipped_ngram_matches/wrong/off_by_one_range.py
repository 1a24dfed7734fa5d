# verdict: wrong_answer
# Mistake: loops over range(len(tokens) - n), which drops the last n-gram of each list.
from collections import Counter


def clipped_ngram_matches(reference, candidate, n):
    if n < 1:
        raise ValueError("n must be at least 1")
    ref = Counter(tuple(reference[i:i + n]) for i in range(len(reference) - n))
    cand = Counter(tuple(candidate[i:i + n]) for i in range(len(candidate) - n))
    return sum(min(c, ref[g]) for g, c in cand.items())
