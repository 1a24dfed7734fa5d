# verdict: wrong_answer
# Mistake: divides by k (precision@k) instead of by the number of relevant documents.
def recall_at_k(ranking, relevant, k):
    if k < 1:
        raise ValueError("k must be at least 1")
    wanted = set(relevant)
    if not wanted:
        raise ValueError("there are no relevant ids")
    return len(wanted.intersection(ranking[:k])) / k
