# verdict: wrong_answer
# Mistake: counts every relevant position in the window, so a repeated id is found twice.
def recall_at_k(ranking, relevant, k):
    if k < 1:
        raise ValueError("k must be at least 1")
    wanted = set(relevant)
    if not wanted:
        raise ValueError("there are no relevant ids")
    return sum(1 for doc in ranking[:k] if doc in wanted) / len(wanted)
