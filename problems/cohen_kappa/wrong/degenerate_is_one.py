# verdict: wrong_answer
# Mistake: returns 1.0 when both raters use one and the same label, instead of raising.
from collections import Counter


def cohen_kappa(gold, predicted):
    if len(gold) != len(predicted):
        raise ValueError("lengths differ")
    if not gold:
        raise ValueError("no items")
    n = len(gold)
    p_o = sum(g == p for g, p in zip(gold, predicted, strict=True)) / n
    gold_counts, predicted_counts = Counter(gold), Counter(predicted)
    p_e = sum(c * predicted_counts[label] for label, c in gold_counts.items()) / (n * n)
    if p_e == 1:
        return 1.0
    return (p_o - p_e) / (1 - p_e)
