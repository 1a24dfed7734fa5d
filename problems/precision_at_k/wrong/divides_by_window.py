# verdict: wrong_answer
# Mistake: divides by the length of the window, so a ranking shorter than k scores too high.
def precision_at_k(ranking, relevant, k):
    if k < 1:
        raise ValueError("k must be at least 1")
    window = ranking[:k]
    if not window:
        return 0.0
    return len(set(relevant).intersection(window)) / len(window)
