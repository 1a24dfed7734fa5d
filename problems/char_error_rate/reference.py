"""Reference solution for char_error_rate: code-point Levenshtein distance over reference length."""


def char_error_rate(reference: str, hypothesis: str) -> float:
    if not reference:
        raise ValueError("the reference is empty")
    # previous[j]: edits that turn reference[:i-1] into hypothesis[:j].
    previous = list(range(len(hypothesis) + 1))
    for i in range(1, len(reference) + 1):
        current = [i] + [0] * len(hypothesis)
        for j in range(1, len(hypothesis) + 1):
            cost = 0 if reference[i - 1] == hypothesis[j - 1] else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        previous = current
    return previous[len(hypothesis)] / len(reference)
