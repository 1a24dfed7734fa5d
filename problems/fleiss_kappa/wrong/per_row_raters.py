# verdict: wrong_answer
# Mistake: uses each row's own rater total, so a table with unequal totals is scored, not refused.
def fleiss_kappa(counts):
    if not counts:
        raise ValueError("no items")
    k = len(counts[0])
    if any(len(row) != k for row in counts):
        raise ValueError("ragged rows")
    if any(c < 0 for row in counts for c in row):
        raise ValueError("negative count")
    if any(sum(row) < 2 for row in counts):
        raise ValueError("fewer than 2 raters")
    total = sum(sum(row) for row in counts)
    p = [sum(row[j] for row in counts) / total for j in range(k)]
    if max(p) == 1:
        raise ValueError("P_e = 1")
    p_e = sum(x * x for x in p)
    p_bar = sum(sum(c * (c - 1) for c in row) / (sum(row) * (sum(row) - 1)) for row in counts) / len(counts)
    return (p_bar - p_e) / (1 - p_e)
