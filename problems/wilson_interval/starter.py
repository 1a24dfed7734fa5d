def wilson_interval(correct: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Return the Wilson score interval (lower, upper) for `correct` successes out of `n`.

    `z` is the normal quantile (1.96 for a two-sided 95% interval). Both bounds are floats
    clamped to [0, 1]. Raise ValueError when n < 1 or when correct is not in 0..n.
    """
    raise NotImplementedError
