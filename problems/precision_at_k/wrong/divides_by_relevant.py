# verdict: wrong_answer
# Mistake: divides by the number of relevant ids (that is recall@k), and so fails on none.
def precision_at_k(ranking, relevant, k):
    if k < 1:
        raise ValueError("k must be at least 1")
    wanted = set(relevant)
    return len(wanted.intersection(ranking[:k])) / len(wanted)
