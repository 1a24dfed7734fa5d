# verdict: wrong_answer
# Mistake: uses the normal-approximation (Wald) interval instead of Wilson's, which is
# too narrow for small n and collapses to a point at 0% or 100%.

import math
from fractions import Fraction

Z = 1.96


def _wilson(correct: int, n: int) -> tuple[float, float]:
    p = correct / n
    z2 = Z * Z
    denominator = 1 + z2 / n
    centre = p
    margin = Z * math.sqrt(p * (1 - p) / n)
    return max(0.0, centre - margin), min(1.0, centre + margin)


def statistical_ties(results: dict[str, tuple[int, int]]) -> list[str]:
    if len(results) < 2:
        return []
    # The leader: highest accuracy (compared exactly), then more answers, then the smaller name.
    leader = min(results, key=lambda name: (-Fraction(results[name][0], results[name][1]),
                                            -results[name][1], name))
    leader_low, leader_high = _wilson(*results[leader])
    ties = []
    for name, (correct, n) in results.items():
        if name == leader:
            continue
        low, high = _wilson(correct, n)
        if low <= leader_high and leader_low <= high:  # closed intervals: touching counts
            ties.append(name)
    return sorted(ties)
