# verdict: wrong_answer
# Mistake: takes the model with the most correct answers as the leader, instead of
# the highest accuracy; with different n these are not the same model.

import math
from fractions import Fraction

Z = 1.96


def _wilson(correct: int, n: int) -> tuple[float, float]:
    p = correct / n
    z2 = Z * Z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    margin = Z / denominator * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return max(0.0, centre - margin), min(1.0, centre + margin)


def statistical_ties(results: dict[str, tuple[int, int]]) -> list[str]:
    if len(results) < 2:
        return []
    # The leader: highest accuracy (compared exactly), then more answers, then the smaller name.
    leader = max(results, key=lambda name: results[name][0])
    leader_low, leader_high = _wilson(*results[leader])
    ties = []
    for name, (correct, n) in results.items():
        if name == leader:
            continue
        low, high = _wilson(correct, n)
        if low <= leader_high and leader_low <= high:  # closed intervals: touching counts
            ties.append(name)
    return sorted(ties)
