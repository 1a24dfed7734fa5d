# verdict: wrong_answer
# Mistake: never validates n, so n = 0 or a negative n returns a number instead of raising
# ValueError.
from collections import Counter


def clipped_ngram_matches(reference, candidate, n):
    ref = Counter(tuple(reference[i:i + n]) for i in range(len(reference) - n + 1))
    cand = Counter(tuple(candidate[i:i + n]) for i in range(len(candidate) - n + 1))
    return sum(min(c, ref[g]) for g, c in cand.items())
