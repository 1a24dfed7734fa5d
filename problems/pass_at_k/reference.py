"""Reference solution for pass_at_k: the unbiased estimator of the HumanEval paper."""


def pass_at_k(n: int, c: int, k: int) -> float:
    if n < 1:
        raise ValueError(f"n is {n}; at least one sample is needed")
    if not 0 <= c <= n:
        raise ValueError(f"c is {c}; the number of passing samples must lie in [0, n]")
    if not 1 <= k <= n:
        raise ValueError(f"k is {k}; it must lie in [1, n]")
    if n - c < k:
        # Every draw of k samples contains a passing one.
        return 1.0
    # C(n - c, k) / C(n, k) = prod_{i = n - c + 1}^{n} (1 - k / i): every factor lies in
    # (0, 1), so the product never overflows and loses no precision to huge binomials.
    all_fail = 1.0
    for i in range(n - c + 1, n + 1):
        all_fail *= 1.0 - k / i
    return 1.0 - all_fail
