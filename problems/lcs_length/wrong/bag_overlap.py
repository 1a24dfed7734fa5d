# verdict: wrong_answer
# Mistake: counts the shared tokens as a multiset and ignores their order.
from collections import Counter


def lcs_length(a, b):
    return sum((Counter(a) & Counter(b)).values())
