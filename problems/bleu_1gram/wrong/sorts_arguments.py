# verdict: wrong_answer
# Mistake: sorts both lists in place to count matches with two pointers. The score is right,
# but both arguments come back reordered.
import math


def bleu_1gram(reference, candidate):
    if not candidate:
        return 0.0
    reference.sort()
    candidate.sort()
    i = j = matched = 0
    while i < len(candidate) and j < len(reference):
        if candidate[i] == reference[j]:
            matched += 1
            i += 1
            j += 1
        elif candidate[i] < reference[j]:
            i += 1
        else:
            j += 1
    c, r = len(candidate), len(reference)
    precision = matched / c
    penalty = 1.0 if c >= r else math.exp(1 - r / c)
    return penalty * precision
