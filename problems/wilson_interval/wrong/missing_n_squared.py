# verdict: wrong_answer
# Mistake: writes z^2 / (4n) inside the square root instead of z^2 / (4n^2).
import math


def wilson_interval(correct, n, z=1.96):
    if n < 1 or correct < 0 or correct > n:
        raise ValueError("bad counts")
    p = correct / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    margin = z / denominator * math.sqrt(p * (1 - p) / n + z * z / (4 * n))
    return (max(0.0, centre - margin), min(1.0, centre + margin))
