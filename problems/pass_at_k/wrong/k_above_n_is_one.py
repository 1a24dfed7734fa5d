# verdict: wrong_answer
# Mistake: accepts k > n and answers 1.0 (no such draw exists, so it must raise ValueError).
def pass_at_k(n, c, k):
    if n < 1 or not 0 <= c <= n or k < 1:
        raise ValueError("invalid n, c or k")
    if n - c < k:
        return 1.0
    all_fail = 1.0
    for i in range(n - c + 1, n + 1):
        all_fail *= 1.0 - k / i
    return 1.0 - all_fail
