# verdict: wrong_answer
# Mistake: draws the k samples with replacement, 1 - (1 - c/n)**k, instead of without.
def pass_at_k(n, c, k):
    if n < 1 or not 0 <= c <= n or not 1 <= k <= n:
        raise ValueError("invalid n, c or k")
    return 1.0 - (1.0 - c / n) ** k
