# verdict: runtime_error
# Mistake: converts the binomial coefficients to floats; C(n, k) overflows a float (OverflowError)
# once n reaches a thousand or so with k near n / 2.
import math


def pass_at_k(n, c, k):
    if n < 1 or not 0 <= c <= n or not 1 <= k <= n:
        raise ValueError("invalid n, c or k")
    if n - c < k:
        return 1.0
    return 1.0 - float(math.comb(n - c, k)) / float(math.comb(n, k))
