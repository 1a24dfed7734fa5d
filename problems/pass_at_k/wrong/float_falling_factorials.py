# verdict: wrong_answer
# Mistake: builds C(n - c, k) / C(n, k) as two separate float products of k factors each. Both
# pass the largest float (about 1.8e308) once k reaches a hundred or so, become inf, and inf / inf
# is nan; a float multiplication overflows silently, with no exception to warn.


def pass_at_k(n, c, k):
    if n < 1 or not 0 <= c <= n or not 1 <= k <= n:
        raise ValueError("invalid n, c or k")
    if n - c < k:
        return 1.0
    numerator = 1.0
    denominator = 1.0
    for j in range(k):
        numerator *= n - c - j
        denominator *= n - j
    return 1.0 - numerator / denominator
