"""Reference solution for log_loss: the mean negative log-likelihood of probability forecasts,
each probability clipped to [eps, 1 - eps] first, as scikit-learn does."""

import math
import sys

EPS = sys.float_info.epsilon  # 2 ** -52: the gap between 1.0 and the next float


def log_loss(outcomes: list[int], probabilities: list[float]) -> float:
    if len(outcomes) != len(probabilities):
        raise ValueError("outcomes and probabilities must have the same length")
    if not outcomes:
        raise ValueError("the log loss of no forecasts is undefined")
    total = 0.0
    for index, (outcome, probability) in enumerate(zip(outcomes, probabilities, strict=True)):
        if outcome not in (0, 1):
            raise ValueError(f"outcome {index} is {outcome!r}, not 0 or 1")
        # Written as a negated range test so that NaN is refused too.
        if not 0.0 <= probability <= 1.0:
            raise ValueError(f"probability {index} is {probability!r}, outside [0, 1]")
        # The clip keeps a certain wrong forecast finite: it costs -ln(EPS), about 36.04.
        clipped = min(max(probability, EPS), 1.0 - EPS)
        total -= math.log(clipped if outcome == 1 else 1.0 - clipped)
    return total / len(outcomes)
