# verdict: wrong_answer
# Mistake: averages the precision at every rank instead of only at the relevant hits.
def average_precision(ranking, relevant):
    wanted = set(relevant)
    if not wanted:
        raise ValueError("there are no relevant ids")
    seen = set()
    precisions = []
    for rank, document in enumerate(ranking, start=1):
        if document in wanted:
            seen.add(document)
        precisions.append(len(seen) / rank)
    return sum(precisions) / len(precisions) if precisions else 0.0
