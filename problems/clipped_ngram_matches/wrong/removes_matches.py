# verdict: wrong_answer
# Mistake: clips unigrams by deleting matched tokens from the caller's reference list (and for
# longer n-grams scans windows of that shrinking list), changing the argument.
def clipped_ngram_matches(reference, candidate, n):
    if n < 1:
        raise ValueError("n must be at least 1")
    if n == 1:
        matched = 0
        for token in candidate:
            if token in reference:
                reference.remove(token)
                matched += 1
        return matched
    ref = [tuple(reference[i:i + n]) for i in range(len(reference) - n + 1)]
    matched = 0
    for i in range(len(candidate) - n + 1):
        gram = tuple(candidate[i:i + n])
        if gram in ref:
            ref.remove(gram)
            matched += 1
    return matched
