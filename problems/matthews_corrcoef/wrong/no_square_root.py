# verdict: wrong_answer
# Mistake: divides by the product of the four totals without taking its square root.
def matthews_corrcoef(gold, predicted):
    if len(gold) != len(predicted) or not gold:
        raise ValueError("bad lengths")
    tp = tn = fp = fn = 0
    for g, p in zip(gold, predicted):
        if g not in (0, 1) or p not in (0, 1):
            raise ValueError("labels must be 0 or 1")
        tp += g == 1 and p == 1
        tn += g == 0 and p == 0
        fp += g == 0 and p == 1
        fn += g == 1 and p == 0
    den = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
    return (tp * tn - fp * fn) / den if den else 0.0
