# verdict: wrong_answer
# Mistake: returns accuracy instead of the correlation.
def matthews_corrcoef(gold, predicted):
    if len(gold) != len(predicted) or not gold:
        raise ValueError("bad lengths")
    for g, p in zip(gold, predicted):
        if g not in (0, 1) or p not in (0, 1):
            raise ValueError("labels must be 0 or 1")
    return sum(g == p for g, p in zip(gold, predicted)) / len(gold)
