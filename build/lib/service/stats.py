"""Acceptance statistics with the Wilson score interval (the same formula as the wilson_interval problem)."""

from __future__ import annotations

import math
from dataclasses import dataclass

Z_95 = 1.959963984540054  # the two-sided 95% normal quantile


def wilson_interval(successes: int, n: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for successes out of n, clamped to [0, 1]."""
    if n <= 0:
        raise ValueError("the Wilson interval needs at least one trial")
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    margin = z / denominator * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - margin), min(1.0, centre + margin)


@dataclass(frozen=True)
class Acceptance:
    submissions: int
    accepted: int
    rate: float | None
    interval: tuple[float, float] | None


def acceptance(submissions: int, accepted: int) -> Acceptance:
    if submissions == 0:
        return Acceptance(0, 0, None, None)
    return Acceptance(submissions, accepted, accepted / submissions,
                      wilson_interval(accepted, submissions))
