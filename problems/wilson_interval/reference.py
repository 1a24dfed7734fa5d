"""Reference solution for wilson_interval: the Wilson score interval for a proportion."""

import math


def wilson_interval(correct: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n < 1:
        raise ValueError("n must be at least 1")
    if correct < 0 or correct > n:
        raise ValueError("correct must be between 0 and n")
    p = correct / n
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    margin = z / denominator * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return (max(0.0, centre - margin), min(1.0, centre + margin))
