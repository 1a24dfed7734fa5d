# verdict: runtime_error
# Mistake: uses int(p * bins) without capping it at bins - 1, so p = 1.0 indexes past the last bin.
# (The explicit IndexError stands for what indexing a list of `bins` totals would raise.)
def expected_calibration_error(outcomes, probabilities, bins):
    if bins < 1:
        raise ValueError("bins < 1")
    if len(outcomes) != len(probabilities) or not outcomes:
        raise ValueError("bad lengths")
    for o, p in zip(outcomes, probabilities, strict=True):
        if o not in (0, 1):
            raise ValueError("outcome not 0 or 1")
        if not 0.0 <= p <= 1.0:
            raise ValueError("probability outside [0, 1]")
    counts = {}
    for o, p in zip(outcomes, probabilities, strict=True):
        b = int(p * bins)
        if b >= bins:
            raise IndexError("bin index out of range")
        counts.setdefault(b, []).append((o, p))
    n = len(outcomes)
    total = 0.0
    for members in counts.values():
        acc = sum(o for o, _ in members) / len(members)
        conf = sum(p for _, p in members) / len(members)
        total += len(members) / n * abs(acc - conf)
    return total
