# verdict: wrong_answer
# Mistake: uses the textbook normal-approximation (Wald) interval p ± z*sqrt(p(1-p)/n), clamped
# to [0, 1]. It collapses to zero width at 0 or n correct answers.
import math


def wilson_interval(correct, n, z=1.96):
    if n < 1 or correct < 0 or correct > n:
        raise ValueError("bad counts")
    p = correct / n
    margin = z * math.sqrt(p * (1 - p) / n)
    return (max(0.0, p - margin), min(1.0, p + margin))
