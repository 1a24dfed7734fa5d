# verdict: wrong_answer
# Mistake: returns the one-sided tail P(X <= k), forgetting to double it for the other side.
import math


def mcnemar_test(only_a, only_b):
    if only_a < 0 or only_b < 0:
        raise ValueError("negative count")
    n = only_a + only_b
    k = min(only_a, only_b)
    tail = sum(math.comb(n, i) for i in range(k + 1))
    return min(1.0, tail / 2**n)
