# verdict: wrong_answer
# Mistake: skips SQuAD normalization and compares the raw whitespace-split tokens, so case,
# punctuation and articles all count.
from collections import Counter


def _f1(p, r):
    if not p and not r:
        return 1.0
    if not p or not r:
        return 0.0
    overlap = sum((Counter(p) & Counter(r)).values())
    if overlap == 0:
        return 0.0
    precision, recall = overlap / len(p), overlap / len(r)
    return 2 * precision * recall / (precision + recall)


def token_f1(prediction, references):
    tokens = prediction.split()
    return max(_f1(tokens, ref.split()) for ref in references)
