# verdict: wrong_answer
# Mistake: per-item agreement sum (n_ij / n)^2 counts each rater as agreeing with themself.
def fleiss_kappa(counts):
    if not counts:
        raise ValueError("no items")
    k = len(counts[0])
    if any(len(row) != k for row in counts):
        raise ValueError("ragged rows")
    if any(c < 0 for row in counts for c in row):
        raise ValueError("negative count")
    n = sum(counts[0])
    if any(sum(row) != n for row in counts):
        raise ValueError("unequal rater totals")
    if n < 2:
        raise ValueError("fewer than 2 raters")
    big_n = len(counts)
    p = [sum(row[j] for row in counts) / (big_n * n) for j in range(k)]
    p_e = sum(x * x for x in p)
    if max(p) == 1:
        raise ValueError("P_e = 1")
    p_bar = sum(sum((c / n) ** 2 for c in row) for row in counts) / big_n
    return (p_bar - p_e) / (1 - p_e)
