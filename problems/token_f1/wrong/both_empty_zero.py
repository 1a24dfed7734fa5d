# verdict: wrong_answer
# Mistake: scores two empty token lists as 0 (no overlap) instead of 1 by the SQuAD convention.
import re
import string
from collections import Counter

_PUNCTUATION = frozenset(string.punctuation)
_ARTICLES = re.compile(r"\b(a|an|the)\b")


def _normalize(text):
    text = text.lower()
    text = "".join(ch for ch in text if ch not in _PUNCTUATION)
    text = _ARTICLES.sub(" ", text)
    return " ".join(text.split())


def _f1(p, r):
    overlap = sum((Counter(p) & Counter(r)).values())
    if overlap == 0:
        return 0.0
    precision, recall = overlap / len(p), overlap / len(r)
    return 2 * precision * recall / (precision + recall)


def token_f1(prediction, references):
    tokens = _normalize(prediction).split()
    return max(_f1(tokens, _normalize(ref).split()) for ref in references)
