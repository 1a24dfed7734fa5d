# verdict: wrong_answer
# Mistake: returns the LCS recall (what a very large beta approaches) instead of F1 with beta 1.
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
    if not o or not e:
        return 0.0
    return _lcs(o, e) / len(e)
