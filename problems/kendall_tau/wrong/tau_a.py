# verdict: wrong_answer
# Mistake: tau-a, (C - D) / P, which ignores the ties in the denominator.
def kendall_tau(x, y):
    if len(x) != len(y):
        raise ValueError("lengths differ")
    n = len(x)
    if n < 2:
        raise ValueError("at least 2 pairs")
    if len(set(x)) == 1 or len(set(y)) == 1:
        return None
    score = 0
    for i in range(n):
        for j in range(i + 1, n):
            s = ((x[i] > x[j]) - (x[i] < x[j])) * ((y[i] > y[j]) - (y[i] < y[j]))
            score += s
    return score / (n * (n - 1) / 2)
