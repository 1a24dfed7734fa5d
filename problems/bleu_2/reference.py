"""Reference solution for bleu_2: brevity penalty times the geometric mean of p1 and p2."""

import math
from collections import Counter


def _clipped_precision(reference: list[str], candidate: list[str], n: int) -> float:
    total = len(candidate) - n + 1
    if total <= 0:
        return 0.0
    reference_counts = Counter(tuple(reference[i:i + n]) for i in range(len(reference) - n + 1))
    candidate_counts = Counter(tuple(candidate[i:i + n]) for i in range(total))
    matched = sum(min(count, reference_counts[gram]) for gram, count in candidate_counts.items())
    return matched / total


def bleu_2(reference: list[str], candidate: list[str]) -> float:
    c, r = len(candidate), len(reference)
    if c == 0:
        return 0.0
    p1 = _clipped_precision(reference, candidate, 1)
    p2 = _clipped_precision(reference, candidate, 2)
    penalty = 1.0 if c >= r else math.exp(1 - r / c)
    return penalty * math.sqrt(p1 * p2)
