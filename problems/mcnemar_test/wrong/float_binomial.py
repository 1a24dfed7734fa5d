# verdict: runtime_error
# Mistake: multiplies math.comb(n, i) by the float 0.5 ** n; for n in the thousands the
# coefficient overflows a float (OverflowError).
import math


def mcnemar_test(only_a, only_b):
    if only_a < 0 or only_b < 0:
        raise ValueError("negative count")
    n = only_a + only_b
    k = min(only_a, only_b)
    tail = sum(math.comb(n, i) * 0.5**n for i in range(k + 1))
    return min(1.0, 2 * tail)
