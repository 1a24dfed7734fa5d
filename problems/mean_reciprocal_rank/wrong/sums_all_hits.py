# verdict: wrong_answer
# Mistake: adds 1/rank for every relevant document instead of the first one only.
def mean_reciprocal_rank(rankings, relevant):
    if not rankings:
        raise ValueError("there are no queries")
    if len(rankings) != len(relevant):
        raise ValueError("lengths differ")
    total = 0.0
    for ranking, wanted in zip(rankings, relevant):
        for rank, document in enumerate(ranking, start=1):
            if document in wanted:
                total += 1 / rank
    return total / len(rankings)
