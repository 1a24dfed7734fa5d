"""Reference solution for bleu_1gram: clipped unigram precision times the brevity penalty."""

import math
from collections import Counter


def bleu_1gram(reference: list[str], candidate: list[str]) -> float:
    if not candidate:
        return 0.0
    reference_counts = Counter(reference)
    candidate_counts = Counter(candidate)
    matched = sum(min(count, reference_counts[token]) for token, count in candidate_counts.items())
    precision = matched / len(candidate)
    c, r = len(candidate), len(reference)
    penalty = 1.0 if c >= r else math.exp(1 - r / c)
    return penalty * precision
