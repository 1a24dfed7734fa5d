# verdict: wrong_answer
# Mistake: returns 1.0 already when n - c == k, where exactly one draw of k samples all fail.
def pass_at_k(n, c, k):
    if n < 1 or not 0 <= c <= n or not 1 <= k <= n:
        raise ValueError("invalid n, c or k")
    if n - c <= k:
        return 1.0
    all_fail = 1.0
    for i in range(n - c + 1, n + 1):
        all_fail *= 1.0 - k / i
    return 1.0 - all_fail
