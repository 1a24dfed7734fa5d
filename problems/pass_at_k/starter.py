def pass_at_k(n: int, c: int, k: int) -> float:
    """Return the unbiased pass@k estimate 1 - C(n - c, k) / C(n, k) as a float.

    n samples were generated for a problem and c of them pass its tests; the result is the
    chance that at least one of k samples drawn without replacement passes (1.0 when
    n - c < k). It must stay accurate for n as large as 10**6.

    Raise ValueError when n < 1, c < 0, c > n, k < 1 or k > n.
    """
    raise NotImplementedError
