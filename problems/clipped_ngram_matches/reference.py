"""Reference solution for clipped_ngram_matches: the numerator of BLEU's n-gram precision."""

from collections import Counter


def _ngrams(tokens: list[str], n: int) -> Counter:
    return Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))


def clipped_ngram_matches(reference: list[str], candidate: list[str], n: int) -> int:
    if n < 1:
        raise ValueError("n must be at least 1")
    reference_counts = _ngrams(reference, n)
    candidate_counts = _ngrams(candidate, n)
    return sum(min(count, reference_counts[gram]) for gram, count in candidate_counts.items())
