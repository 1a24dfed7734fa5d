"""Reference solution for expected_calibration_error: equal-width bins, weighted by bin size."""


def expected_calibration_error(outcomes: list[int], probabilities: list[float], bins: int) -> float:
    if bins < 1:
        raise ValueError(f"bins is {bins!r}; at least one bin is needed")
    if len(outcomes) != len(probabilities):
        raise ValueError("outcomes and probabilities must have the same length")
    if not outcomes:
        raise ValueError("the calibration error of no forecasts is undefined")
    # Only the bins that receive a forecast are stored, so a huge `bins` costs nothing.
    counts: dict[int, int] = {}
    hits: dict[int, int] = {}
    confidence: dict[int, float] = {}
    for index, (outcome, probability) in enumerate(zip(outcomes, probabilities, strict=True)):
        if outcome not in (0, 1):
            raise ValueError(f"outcome {index} is {outcome!r}, not 0 or 1")
        # Written as a negated range test so that NaN is refused too.
        if not 0.0 <= probability <= 1.0:
            raise ValueError(f"probability {index} is {probability!r}, outside [0, 1]")
        # The floating-point product, truncated; 1.0 joins the last bin.
        b = min(int(probability * bins), bins - 1)
        counts[b] = counts.get(b, 0) + 1
        hits[b] = hits.get(b, 0) + outcome
        confidence[b] = confidence.get(b, 0.0) + probability
    n = len(outcomes)
    total = 0.0
    for b, count in counts.items():
        accuracy = hits[b] / count
        mean_probability = confidence[b] / count
        total += count / n * abs(accuracy - mean_probability)
    return total
