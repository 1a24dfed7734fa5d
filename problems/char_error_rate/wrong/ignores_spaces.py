# verdict: wrong_answer
# Mistake: removes the spaces before comparing: spaces are characters too.
def char_error_rate(reference, hypothesis):
    ref, hyp = reference.replace(' ', ''), hypothesis.replace(' ', '')
    if not ref:
        raise ValueError('the reference is empty')
    previous = list(range(len(hyp) + 1))
    for i in range(1, len(ref) + 1):
        current = [i] + [0] * len(hyp)
        for j in range(1, len(hyp) + 1):
            cost = 0 if ref[i - 1] == hyp[j - 1] else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        previous = current
    return previous[len(hyp)] / len(ref)
