"""Reference solution for kendall_tau: tau-b from concordant, discordant and tied pairs."""

import math


def kendall_tau(x: list[float], y: list[float]) -> float | None:
    if len(x) != len(y):
        raise ValueError(f"x has {len(x)} values but y has {len(y)}")
    n = len(x)
    if n < 2:
        raise ValueError("a correlation needs at least 2 pairs")
    concordant = discordant = tied_x = tied_y = 0
    for i in range(n):
        for j in range(i + 1, n):
            dx = (x[i] > x[j]) - (x[i] < x[j])
            dy = (y[i] > y[j]) - (y[i] < y[j])
            if dx == 0:
                tied_x += 1
            if dy == 0:
                tied_y += 1
            if dx * dy > 0:
                concordant += 1
            elif dx * dy < 0:
                discordant += 1
    pairs = n * (n - 1) // 2
    denominator = (pairs - tied_x) * (pairs - tied_y)
    if denominator == 0:
        return None
    return (concordant - discordant) / math.sqrt(denominator)
