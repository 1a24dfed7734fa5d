# verdict: wrong_answer
# Mistake: the window holds k + 1 results instead of k.
def recall_at_k(ranking, relevant, k):
    if k < 1:
        raise ValueError("k must be at least 1")
    wanted = set(relevant)
    if not wanted:
        raise ValueError("there are no relevant ids")
    return len(wanted.intersection(ranking[:k + 1])) / len(wanted)
