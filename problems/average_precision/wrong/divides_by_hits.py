# verdict: wrong_answer
# Mistake: divides by the number of relevant documents retrieved, not by all relevant documents.
def average_precision(ranking, relevant):
    wanted = set(relevant)
    if not wanted:
        raise ValueError("there are no relevant ids")
    seen = set()
    total = 0.0
    for rank, document in enumerate(ranking, start=1):
        if document in wanted and document not in seen:
            seen.add(document)
            total += len(seen) / rank
    return total / len(seen) if seen else 0.0
