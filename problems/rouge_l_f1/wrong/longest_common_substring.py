# verdict: wrong_answer
# Mistake: finds the longest common contiguous run of tokens (substring) instead of the
# longest common subsequence, which may skip tokens.
import re


def _longest_run(a, b):
    best = 0
    previous = [0] * (len(b) + 1)
    for x in a:
        current = [0] * (len(b) + 1)
        for j, y in enumerate(b, 1):
            if x == y:
                current[j] = previous[j - 1] + 1
                best = max(best, current[j])
        previous = current
    return best


def rouge_l_f1(output, expected):
    o, e = re.findall(r"[^\W_]+", output.lower()), re.findall(r"[^\W_]+", expected.lower())
    if not o or not e:
        return 0.0
    lcs = _longest_run(o, e)
    if lcs == 0:
        return 0.0
    return 2 * lcs / (len(o) + len(e))
