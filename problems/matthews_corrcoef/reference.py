"""Reference solution for matthews_corrcoef: the confusion counts, then MCC (0.0 when undefined)."""

import math


def matthews_corrcoef(gold: list[int], predicted: list[int]) -> float:
    if len(gold) != len(predicted):
        raise ValueError(f"{len(gold)} gold labels but {len(predicted)} predictions")
    if not gold:
        raise ValueError("there are no labels")
    tp = tn = fp = fn = 0
    for g, p in zip(gold, predicted):
        if g not in (0, 1) or p not in (0, 1):
            raise ValueError(f"labels must be 0 or 1, not {g!r} and {p!r}")
        if g == 1 and p == 1:
            tp += 1
        elif g == 0 and p == 0:
            tn += 1
        elif p == 1:
            fp += 1
        else:
            fn += 1
    denominator = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
    if denominator == 0:
        return 0.0
    return (tp * tn - fp * fn) / math.sqrt(denominator)
