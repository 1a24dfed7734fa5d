# verdict: wrong_answer
# Mistake: splits on whitespace instead of using the 13a tokenizer, so 'page.' and
# 'page .' differ and entities stay encoded.

import math
from collections import Counter

MAX_ORDER = 4

def _tokenize_13a(text: str) -> list[str]:
    return text.split()


def _ngrams(tokens: list[str]) -> Counter:
    counts: Counter = Counter()
    for n in range(1, MAX_ORDER + 1):
        for i in range(len(tokens) - n + 1):
            counts[tuple(tokens[i:i + n])] += 1
    return counts


def corpus_bleu(hypotheses: list[str], references: list[list[str]]) -> float:
    if len(hypotheses) != len(references):
        raise ValueError(f"{len(hypotheses)} hypotheses but {len(references)} reference lists")
    if not hypotheses:
        raise ValueError("the corpus has no sentences")
    for i, refs in enumerate(references):
        if not refs:
            raise ValueError(f"sentence {i} has no reference")

    matches = [0] * MAX_ORDER
    totals = [0] * MAX_ORDER
    hyp_length = 0
    ref_length = 0
    for hypothesis, refs in zip(hypotheses, references, strict=True):
        hyp = _tokenize_13a(hypothesis.rstrip())
        # Clip against the largest count of each n-gram in any single reference of this sentence.
        max_ref_counts: Counter = Counter()
        ref_lengths = []
        for reference in refs:
            tokens = _tokenize_13a(reference.rstrip())
            ref_lengths.append(len(tokens))
            for gram, count in _ngrams(tokens).items():
                if count > max_ref_counts[gram]:
                    max_ref_counts[gram] = count
        for gram, count in _ngrams(hyp).items():
            totals[len(gram) - 1] += count
            matches[len(gram) - 1] += min(count, max_ref_counts[gram])
        c = len(hyp)
        hyp_length += c
        # Closest reference length; a tie goes to the shorter reference.
        ref_length += min(ref_lengths, key=lambda length: (abs(c - length), length))

    # No smoothing: one order without a match (or without any n-gram) makes the score 0.
    if any(m == 0 for m in matches):
        return 0.0

    penalty = 1.0 if hyp_length >= ref_length else math.exp(1 - ref_length / hyp_length)
    log_sum = sum(math.log(m / t) for m, t in zip(matches, totals, strict=True))
    return penalty * math.exp(log_sum / MAX_ORDER)
