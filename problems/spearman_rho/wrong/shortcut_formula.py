# verdict: wrong_answer
# Mistake: uses the no-ties shortcut 1 - 6*sum(d^2)/(n(n^2-1)) on average ranks.
def _ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for at in range(start, end + 1):
            ranks[order[at]] = (start + end) / 2 + 1
        start = end + 1
    return ranks


def spearman_rho(x, y):
    if len(x) != len(y):
        raise ValueError("lengths differ")
    if len(x) < 2:
        raise ValueError("at least 2 pairs")
    if len(set(x)) == 1 or len(set(y)) == 1:
        return None
    n = len(x)
    d2 = sum((a - b) ** 2 for a, b in zip(_ranks(x), _ranks(y)))
    return 1 - 6 * d2 / (n * (n * n - 1))
