"""Reference solution for word_error_rate: word-level Levenshtein distance over reference length."""


def word_error_rate(reference: str, hypothesis: str) -> float:
    ref = reference.split()
    hyp = hypothesis.split()
    if not ref:
        raise ValueError("the reference has no words")
    # previous[j]: edits that turn the first i-1 reference words into the first j hypothesis words.
    previous = list(range(len(hyp) + 1))
    for i in range(1, len(ref) + 1):
        current = [i] + [0] * len(hyp)
        for j in range(1, len(hyp) + 1):
            cost = 0 if ref[i - 1] == hyp[j - 1] else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        previous = current
    return previous[len(hyp)] / len(ref)
