# verdict: wrong_answer
# Mistake: drops the absolute value, so over- and under-confident bins cancel out.
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
    groups = {}
    for o, p in zip(outcomes, probabilities, strict=True):
        b = min(int(p * bins), bins - 1)
        groups.setdefault(b, []).append((o, p))
    n = len(outcomes)
    total = 0.0
    for members in groups.values():
        acc = sum(o for o, _ in members) / len(members)
        conf = sum(p for _, p in members) / len(members)
        total += len(members) / n * (acc - conf)
    return abs(total)
