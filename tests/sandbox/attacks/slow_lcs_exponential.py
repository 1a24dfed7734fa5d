# problem: lcs_length
# verdict: time_limit_exceeded
# attack: an exponential recursion, right and fast on small inputs, that never finishes on the larger hidden tests: the run must stop at the first one
# max-seconds: 12
import sys

sys.setrecursionlimit(20_000)  # Python-to-Python calls use no C stack in 3.11


def lcs_length(a, b):
    def go(i, j):
        if i == len(a) or j == len(b):
            return 0
        if a[i] == b[j]:
            return 1 + go(i + 1, j + 1)
        return max(go(i + 1, j), go(i, j + 1))

    return go(0, 0)
