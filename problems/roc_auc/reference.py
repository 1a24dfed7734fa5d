"""Reference solution for roc_auc: the Mann-Whitney count of correctly ordered pairs."""

import math
from itertools import groupby


def roc_auc(outcomes: list[int], scores: list[float]) -> float:
    if len(outcomes) != len(scores):
        raise ValueError("outcomes and scores must have the same length")
    for index, (outcome, score) in enumerate(zip(outcomes, scores, strict=True)):
        if outcome not in (0, 1):
            raise ValueError(f"outcome {index} is {outcome!r}, not 0 or 1")
        if math.isnan(score):
            raise ValueError(f"score {index} is NaN")
    positives = sum(outcomes)
    negatives = len(outcomes) - positives
    if positives == 0 or negatives == 0:
        raise ValueError("the AUC needs at least one positive and one negative outcome")
    # Walk the scores upwards one group of equal scores at a time. A positive beats every
    # negative below its group and ties with each negative inside it; counting in halves keeps
    # the count an exact integer.
    negatives_below = 0
    doubled_wins = 0
    for _, group in groupby(sorted(zip(scores, outcomes, strict=True)), key=lambda pair: pair[0]):
        group_positives = group_negatives = 0
        for _, outcome in group:
            if outcome == 1:
                group_positives += 1
            else:
                group_negatives += 1
        doubled_wins += group_positives * (2 * negatives_below + group_negatives)
        negatives_below += group_negatives
    return doubled_wins / (2 * positives * negatives)
