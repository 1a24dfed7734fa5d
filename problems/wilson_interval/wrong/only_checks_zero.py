# verdict: wrong_answer
# Mistake: rejects n == 0 only; a count of correct answers above n (or below 0) is not caught
# and produces a meaningless interval instead of a ValueError.
import math


def wilson_interval(correct, n, z=1.96):
    if n == 0:
        raise ValueError("n must be positive")
    p = correct / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    radicand = p * (1 - p) / n + z * z / (4 * n * n)
    margin = z / denominator * math.sqrt(abs(radicand))
    return (max(0.0, centre - margin), min(1.0, centre + margin))
