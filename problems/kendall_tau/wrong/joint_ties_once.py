# verdict: wrong_answer
# Mistake: a pair tied in both x and y is counted as tied in x only.
import math


def kendall_tau(x, y):
    if len(x) != len(y):
        raise ValueError("lengths differ")
    n = len(x)
    if n < 2:
        raise ValueError("at least 2 pairs")
    c = d = tx = ty = 0
    for i in range(n):
        for j in range(i + 1, n):
            dx = (x[i] > x[j]) - (x[i] < x[j])
            dy = (y[i] > y[j]) - (y[i] < y[j])
            if dx == 0:
                tx += 1
            elif dy == 0:
                ty += 1
            elif dx * dy > 0:
                c += 1
            else:
                d += 1
    pairs = n * (n - 1) // 2
    den = (pairs - tx) * (pairs - ty)
    return (c - d) / math.sqrt(den) if den else None
