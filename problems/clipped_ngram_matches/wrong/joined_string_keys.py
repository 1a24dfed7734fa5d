# verdict: wrong_answer
# Mistake: keys n-grams by " ".join(...), so different token sequences that join to the same
# string (tokens containing spaces) collide.
from collections import Counter


def clipped_ngram_matches(reference, candidate, n):
    if n < 1:
        raise ValueError("n must be at least 1")
    ref = Counter(" ".join(reference[i:i + n]) for i in range(len(reference) - n + 1))
    cand = Counter(" ".join(candidate[i:i + n]) for i in range(len(candidate) - n + 1))
    return sum(min(c, ref[g]) for g, c in cand.items())
