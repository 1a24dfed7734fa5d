# verdict: wrong_answer
# Mistake: averages precision and recall over all eight orders, counting an order that one
# side cannot reach as 0, instead of over the usable orders only.

from collections import Counter

CHAR_ORDER = 6
WORD_ORDER = 2
BETA = 2.0
PUNCTUATION = set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")  # the 32 ASCII punctuation characters


def _words(text: str) -> list[str]:
    """Split on whitespace; split one punctuation character off the end (else off the start)."""
    words = []
    for word in text.split():
        if len(word) == 1:
            words.append(word)
        elif word[-1] in PUNCTUATION:
            words += [word[:-1], word[-1]]
        elif word[0] in PUNCTUATION:
            words += [word[0], word[1:]]
        else:
            words.append(word)
    return words


def _ngrams(text: str) -> list[Counter]:
    chars = "".join(text.split())  # drop every whitespace character
    grams = [Counter(chars[i:i + n] for i in range(len(chars) - n + 1))
             for n in range(1, CHAR_ORDER + 1)]
    words = _words(text)
    grams += [Counter(tuple(words[i:i + n]) for i in range(len(words) - n + 1))
              for n in range(1, WORD_ORDER + 1)]
    return grams


def _f_score(hyp_grams: list[Counter], ref_grams: list[Counter]) -> float:
    precision_sum = 0.0
    recall_sum = 0.0
    orders = 0
    for hyp, ref in zip(hyp_grams, ref_grams, strict=True):
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
    precision = precision_sum / (CHAR_ORDER + WORD_ORDER)
    recall = recall_sum / (CHAR_ORDER + WORD_ORDER)
    if precision + recall == 0:
        return 0.0
    factor = BETA * BETA
    return (1 + factor) * precision * recall / (factor * precision + recall)


def chrf_plus_plus(hypothesis: str, references: list[str]) -> float:
    hyp_grams = _ngrams(hypothesis)
    return max(_f_score(hyp_grams, _ngrams(reference)) for reference in references)
