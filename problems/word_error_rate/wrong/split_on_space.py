# verdict: wrong_answer
# Mistake: splits on a single space, so double spaces make empty words and tabs stay inside words.
def word_error_rate(reference, hypothesis):
    ref = [w for w in reference.strip(" ").split(" ")] if reference.strip() else []
    hyp = [w for w in hypothesis.strip(" ").split(" ")] if hypothesis.strip() else []
    if not ref:
        raise ValueError("the reference has no words")
    previous = list(range(len(hyp) + 1))
    for i in range(1, len(ref) + 1):
        current = [i] + [0] * len(hyp)
        for j in range(1, len(hyp) + 1):
            cost = 0 if ref[i - 1] == hyp[j - 1] else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        previous = current
    return previous[len(hyp)] / len(ref)
