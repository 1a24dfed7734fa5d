"""Reference solution for cohen_kappa: observed agreement corrected for the agreement that the two
raters' label frequencies would give by chance."""

from collections import Counter


def cohen_kappa(gold: list[str], predicted: list[str]) -> float:
    if len(gold) != len(predicted):
        raise ValueError(f"{len(gold)} gold labels but {len(predicted)} predictions")
    if not gold:
        raise ValueError("kappa of no items is undefined")
    n = len(gold)
    agreements = sum(1 for g, p in zip(gold, predicted, strict=True) if g == p)
    gold_counts = Counter(gold)
    predicted_counts = Counter(predicted)
    # n^2 * p_e: the chance agreement from each rater's own label frequencies.
    chance = sum(count * predicted_counts[label] for label, count in gold_counts.items())
    # kappa = (p_o - p_e) / (1 - p_e), both sides multiplied by n^2 so the test below is exact.
    denominator = n * n - chance
    if denominator == 0:
        raise ValueError("expected agreement is 1 (both raters give one same label): kappa is undefined")
    return (n * agreements - chance) / denominator
