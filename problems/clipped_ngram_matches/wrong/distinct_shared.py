# verdict: wrong_answer
# Mistake: counts distinct shared n-grams (a set intersection) instead of clipped counts.
def clipped_ngram_matches(reference, candidate, n):
    if n < 1:
        raise ValueError("n must be at least 1")
    ref = {tuple(reference[i:i + n]) for i in range(len(reference) - n + 1)}
    cand = {tuple(candidate[i:i + n]) for i in range(len(candidate) - n + 1)}
    return len(ref & cand)
