# verdict: wrong_answer
# Mistake: computes an F-score for each usable order and averages those, instead of
# averaging precision and recall first and computing one F-score.

from collections import Counter

MAX_ORDER = 6
BETA = 2.0


def _char_ngrams(text: str) -> list[Counter]:
    chars = "".join(text.split())  # drop every whitespace character
    return [Counter(chars[i:i + n] for i in range(len(chars) - n + 1))
            for n in range(1, MAX_ORDER + 1)]


def _f_score(hyp_grams: list[Counter], ref_grams: list[Counter]) -> float:
    precision_sum = 0.0
    recall_sum = 0.0
    orders = 0
    for hyp, ref in zip(hyp_grams, ref_grams):
        hyp_total = sum(hyp.values())
        ref_total = sum(ref.values())
        if hyp_total == 0 or ref_total == 0:
            continue  # only orders where both sides have n-grams count
        matches = sum(min(count, ref[gram]) for gram, count in hyp.items())
        p, r = matches / hyp_total, matches / ref_total
        f = 5 * p * r / (4 * p + r) if p + r else 0.0
        precision_sum += f
        recall_sum += f
        orders += 1
    if orders == 0:
        return 0.0
    precision = precision_sum / orders
    recall = recall_sum / orders
    if precision + recall == 0:
        return 0.0
    factor = BETA * BETA
    return (1 + factor) * precision * recall / (factor * precision + recall)


def chrf(hypothesis: str, references: list[str]) -> float:
    hyp_grams = _char_ngrams(hypothesis)
    return max(_f_score(hyp_grams, _char_ngrams(reference)) for reference in references)
