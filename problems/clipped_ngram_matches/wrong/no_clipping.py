# verdict: wrong_answer
# Mistake: counts every candidate n-gram that occurs anywhere in the reference, without
# clipping repeats to the reference's count.
def clipped_ngram_matches(reference, candidate, n):
    if n < 1:
        raise ValueError("n must be at least 1")
    ref = {tuple(reference[i:i + n]) for i in range(len(reference) - n + 1)}
    return sum(1 for i in range(len(candidate) - n + 1) if tuple(candidate[i:i + n]) in ref)
