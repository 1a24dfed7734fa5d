# verdict: wrong_answer
# Mistake: skips the missing orders of a short hypothesis but still takes the
# geometric mean with exponent 1/4, as if all four orders were there.

import math
import re
from collections import Counter

MAX_ORDER = 4

_SUBSTITUTIONS = (
    (re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"), r" \1 "),
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),
)


def _tokenize_13a(text: str) -> list[str]:
    line = text.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    line = line.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    line = f" {line} "
    for pattern, replacement in _SUBSTITUTIONS:
        line = pattern.sub(replacement, line)
    return line.split()


def _ngrams(tokens: list[str]) -> Counter:
    counts: Counter = Counter()
    for n in range(1, MAX_ORDER + 1):
        for i in range(len(tokens) - n + 1):
            counts[tuple(tokens[i:i + n])] += 1
    return counts


def sentence_bleu(hypothesis: str, references: list[str]) -> float:
    hyp = _tokenize_13a(hypothesis.rstrip())
    hyp_counts = _ngrams(hyp)

    # Clip against the largest count of each n-gram in any single reference.
    max_ref_counts: Counter = Counter()
    ref_lengths = []
    for reference in references:
        tokens = _tokenize_13a(reference.rstrip())
        ref_lengths.append(len(tokens))
        for gram, count in _ngrams(tokens).items():
            if count > max_ref_counts[gram]:
                max_ref_counts[gram] = count

    matches = [0] * MAX_ORDER
    totals = [0] * MAX_ORDER
    for gram, count in hyp_counts.items():
        totals[len(gram) - 1] += count
        matches[len(gram) - 1] += min(count, max_ref_counts[gram])

    if sum(matches) == 0:
        return 0.0

    c = len(hyp)
    # Closest reference length; a tie goes to the shorter reference.
    r = min(ref_lengths, key=lambda length: (abs(c - length), length))
    penalty = 1.0 if c >= r else math.exp(1 - r / c)

    log_sum = 0.0
    order = 0
    zero_orders = 0
    for n in range(MAX_ORDER):
        if totals[n] == 0:
            break  # effective order: orders without hypothesis n-grams are dropped
        order += 1
        if matches[n] == 0:
            zero_orders += 1
            precision = 1.0 / (2 ** zero_orders * totals[n])
        else:
            precision = matches[n] / totals[n]
        log_sum += math.log(precision)
    return penalty * math.exp(log_sum / MAX_ORDER)
