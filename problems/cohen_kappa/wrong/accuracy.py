# verdict: wrong_answer
# Mistake: returns the observed agreement p_o, with no correction for chance.
def cohen_kappa(gold, predicted):
    if len(gold) != len(predicted):
        raise ValueError("lengths differ")
    if not gold:
        raise ValueError("no items")
    n = len(gold)
    p_o = sum(g == p for g, p in zip(gold, predicted, strict=True)) / n
    if len(set(gold) | set(predicted)) == 1:
        raise ValueError("expected agreement is 1")
    return p_o
