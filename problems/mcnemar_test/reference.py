"""Reference solution for mcnemar_test: the exact two-sided binomial test on discordant pairs."""


def mcnemar_test(only_a: int, only_b: int) -> float:
    if only_a < 0 or only_b < 0:
        raise ValueError(f"counts must not be negative, not {only_a!r} and {only_b!r}")
    n = only_a + only_b
    k = min(only_a, only_b)
    # P(X <= k) for X ~ Binomial(n, 1/2) is tail / 2**n, where tail = C(n, 0) + ... + C(n, k).
    # Integers keep every term exact; the one true division at the end rounds correctly.
    term = 1
    tail = 1
    for i in range(k):
        term = term * (n - i) // (i + 1)  # C(n, i + 1) from C(n, i); the division is exact
        tail += term
    # Doubling counts the middle term twice when only_a == only_b, so the cap is needed; n = 0
    # gives tail = 1 and 2 / 1, capped to 1.0.
    return min(1.0, 2 * tail / 2**n)
