# verdict: wrong_answer
# Mistake: the window holds k + 1 results instead of k.
def precision_at_k(ranking, relevant, k):
    if k < 1:
        raise ValueError("k must be at least 1")
    return len(set(relevant).intersection(ranking[:k + 1])) / k
