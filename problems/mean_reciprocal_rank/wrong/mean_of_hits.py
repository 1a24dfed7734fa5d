# verdict: wrong_answer
# Mistake: averages over the queries that found a relevant document only.
def mean_reciprocal_rank(rankings, relevant):
    if not rankings:
        raise ValueError("there are no queries")
    if len(rankings) != len(relevant):
        raise ValueError("lengths differ")
    found = []
    for ranking, wanted in zip(rankings, relevant):
        for rank, document in enumerate(ranking, start=1):
            if document in wanted:
                found.append(1 / rank)
                break
    return sum(found) / len(found) if found else 0.0
