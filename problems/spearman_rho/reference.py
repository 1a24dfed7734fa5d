"""Reference solution for spearman_rho: average ranks for ties, then Pearson on the ranks."""

import math


def _ranks(values: list[float]) -> list[float]:
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        shared = (start + end) / 2 + 1  # the average of ranks start+1 .. end+1
        for at in range(start, end + 1):
            ranks[order[at]] = shared
        start = end + 1
    return ranks


def spearman_rho(x: list[float], y: list[float]) -> float | None:
    if len(x) != len(y):
        raise ValueError(f"x has {len(x)} values but y has {len(y)}")
    if len(x) < 2:
        raise ValueError("a correlation needs at least 2 pairs")
    rx, ry = _ranks(x), _ranks(y)
    mean = (len(x) + 1) / 2  # the mean of any full set of ranks, ties or not
    dx = [r - mean for r in rx]
    dy = [r - mean for r in ry]
    sxx = sum(d * d for d in dx)
    syy = sum(d * d for d in dy)
    if sxx == 0 or syy == 0:
        return None
    return sum(a * b for a, b in zip(dx, dy)) / math.sqrt(sxx * syy)
