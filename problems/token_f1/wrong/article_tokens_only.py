# verdict: wrong_answer
# Mistake: drops articles only when they are whole whitespace-separated tokens, so an article
# glued to non-ASCII punctuation such as «the» survives.
import string
from collections import Counter

_PUNCTUATION = frozenset(string.punctuation)


def _normalize(text):
    text = "".join(ch for ch in text.lower() if ch not in _PUNCTUATION)
    return [t for t in text.split() if t not in ("a", "an", "the")]


def _f1(p, r):
    if not p and not r:
        return 1.0
    if not p or not r:
        return 0.0
    overlap = sum((Counter(p) & Counter(r)).values())
    if overlap == 0:
        return 0.0
    precision, recall = overlap / len(p), overlap / len(r)
    return 2 * precision * recall / (precision + recall)


def token_f1(prediction, references):
    tokens = _normalize(prediction)
    return max(_f1(tokens, _normalize(ref)) for ref in references)
