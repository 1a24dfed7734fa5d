# verdict: wrong_answer
# Mistake: doubles the tail but never caps it, so equal counts give a "probability" above 1.
import math


def mcnemar_test(only_a, only_b):
    if only_a < 0 or only_b < 0:
        raise ValueError("negative count")
    n = only_a + only_b
    k = min(only_a, only_b)
    tail = sum(math.comb(n, i) for i in range(k + 1))
    return 2 * tail / 2**n
