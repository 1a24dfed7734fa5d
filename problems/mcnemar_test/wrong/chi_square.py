# verdict: wrong_answer
# Mistake: uses the asymptotic chi-square McNemar test with continuity correction, not the
# exact binomial one.
import math


def mcnemar_test(only_a, only_b):
    if only_a < 0 or only_b < 0:
        raise ValueError("negative count")
    n = only_a + only_b
    if n == 0:
        return 1.0
    statistic = (abs(only_a - only_b) - 1) ** 2 / n
    # Survival function of the chi-square distribution with one degree of freedom.
    return math.erfc(math.sqrt(statistic / 2))
