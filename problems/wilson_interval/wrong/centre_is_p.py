# verdict: wrong_answer
# Mistake: centres the interval on the observed accuracy p instead of Wilson's shifted centre
# (p + z^2/2n) / (1 + z^2/n).
import math


def wilson_interval(correct, n, z=1.96):
    if n < 1 or correct < 0 or correct > n:
        raise ValueError("bad counts")
    p = correct / n
    denominator = 1 + z * z / n
    margin = z / denominator * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (max(0.0, p - margin), min(1.0, p + margin))
