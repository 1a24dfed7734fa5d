# verdict: runtime_error
# Mistake: counts ranks from 0, so a relevant document at the top divides by zero.
def mean_reciprocal_rank(rankings, relevant):
    if not rankings:
        raise ValueError("there are no queries")
    if len(rankings) != len(relevant):
        raise ValueError("lengths differ")
    total = 0.0
    for ranking, wanted in zip(rankings, relevant):
        for rank, document in enumerate(ranking):
            if document in wanted:
                total += 1 / rank
                break
    return total / len(rankings)
