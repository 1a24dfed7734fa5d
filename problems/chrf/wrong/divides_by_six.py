# verdict: wrong_answer
# Mistake: averages precision and recall over all six orders, counting an order that one
# side cannot reach as 0, instead of averaging over the usable orders only.

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
        precision_sum += matches / hyp_total
        recall_sum += matches / ref_total
        orders += 1
    if orders == 0:
        return 0.0
    precision = precision_sum / MAX_ORDER
    recall = recall_sum / MAX_ORDER
    if precision + recall == 0:
        return 0.0
    factor = BETA * BETA
    return (1 + factor) * precision * recall / (factor * precision + recall)


def chrf(hypothesis: str, references: list[str]) -> float:
    hyp_grams = _char_ngrams(hypothesis)
    return max(_f_score(hyp_grams, _char_ngrams(reference)) for reference in references)
