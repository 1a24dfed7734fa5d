# verdict: wrong_answer
# Mistake: assumes chance agreement 1/m for m labels, as if every label were equally likely.
def cohen_kappa(gold, predicted):
    if len(gold) != len(predicted):
        raise ValueError("lengths differ")
    if not gold:
        raise ValueError("no items")
    n = len(gold)
    p_o = sum(g == p for g, p in zip(gold, predicted, strict=True)) / n
    m = len(set(gold) | set(predicted))
    if m == 1:
        raise ValueError("expected agreement is 1")
    p_e = 1 / m
    return (p_o - p_e) / (1 - p_e)
