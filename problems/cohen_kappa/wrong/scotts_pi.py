# verdict: wrong_answer
# Mistake: takes p_e from the two raters' labels pooled together (Scott's pi), not from each own.
from collections import Counter


def cohen_kappa(gold, predicted):
    if len(gold) != len(predicted):
        raise ValueError("lengths differ")
    if not gold:
        raise ValueError("no items")
    n = len(gold)
    p_o = sum(g == p for g, p in zip(gold, predicted, strict=True)) / n
    pooled = Counter(gold) + Counter(predicted)
    p_e = sum((count / (2 * n)) ** 2 for count in pooled.values())
    if p_e == 1:
        raise ValueError("expected agreement is 1")
    return (p_o - p_e) / (1 - p_e)
