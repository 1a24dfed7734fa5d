# verdict: wrong_answer
def unigram_precision(candidate, reference):
    tokens = candidate.split()
    if not tokens:
        return 0.0
    known = set(reference.split())
    return sum(token in known for token in tokens) / len(tokens)
