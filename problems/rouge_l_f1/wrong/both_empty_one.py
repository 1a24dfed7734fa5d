# verdict: wrong_answer
# Mistake: treats two texts without tokens as a perfect match (1.0); the rule says 0.0.
import re

def _lcs(a, b):
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            if a[i - 1] == b[j - 1]:
                table[i][j] = table[i - 1][j - 1] + 1
            else:
                table[i][j] = max(table[i - 1][j], table[i][j - 1])
    return table[-1][-1]


def rouge_l_f1(output, expected):
    o, e = re.findall(r"[^\W_]+", output.lower()), re.findall(r"[^\W_]+", expected.lower())
    if not o and not e:
        return 1.0
    if not o or not e:
        return 0.0
    lcs = _lcs(o, e)
    if lcs == 0:
        return 0.0
    p, r = lcs / len(o), lcs / len(e)
    return 2 * p * r / (p + r)
