# verdict: wrong_answer
# Mistake: counts a tie as a full win (s_i >= s_j), so a constant score gets 1.0 instead of 0.5.
import math


def roc_auc(outcomes, scores):
    if len(outcomes) != len(scores):
        raise ValueError("lengths differ")
    for o, s in zip(outcomes, scores, strict=True):
        if o not in (0, 1):
            raise ValueError("outcome not 0 or 1")
        if math.isnan(s):
            raise ValueError("NaN score")
    pos = sorted(s for o, s in zip(outcomes, scores, strict=True) if o == 1)
    neg = sorted(s for o, s in zip(outcomes, scores, strict=True) if o == 0)
    if not pos or not neg:
        raise ValueError("need both classes")
    wins = 0
    below = 0
    for s in pos:
        while below < len(neg) and neg[below] <= s:
            below += 1
        wins += below
    return wins / (len(pos) * len(neg))
