from collections import Counter


def unigram_precision(candidate, reference):
    tokens = candidate.split()
    if not tokens:
        return 0.0
    matched = sum((Counter(tokens) & Counter(reference.split())).values())
    return matched / len(tokens)
