# verdict: time_limit_exceeded
# Mistake: plain recursion that tries both skips at every mismatch, without memoization. It is
# correct but takes exponential time; raising the recursion limit only hides the depth problem.
import sys

sys.setrecursionlimit(20000)


def lcs_length(a, b):
    def go(i, j):
        if i == len(a) or j == len(b):
            return 0
        if a[i] == b[j]:
            return 1 + go(i + 1, j + 1)
        return max(go(i + 1, j), go(i, j + 1))

    return go(0, 0)
