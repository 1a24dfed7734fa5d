# verdict: wrong_answer
# Mistake: a relevant id listed again counts as a new hit.
def average_precision(ranking, relevant):
    wanted = set(relevant)
    if not wanted:
        raise ValueError("there are no relevant ids")
    hits = 0
    total = 0.0
    for rank, document in enumerate(ranking, start=1):
        if document in wanted:
            hits += 1
            total += hits / rank
    return total / len(wanted)
