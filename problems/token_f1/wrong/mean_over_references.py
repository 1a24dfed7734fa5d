# verdict: wrong_answer
# Mistake: averages the F1 over the references instead of taking the best one.
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
    if not references:
        raise ValueError("no references")
    tokens = _normalize(prediction).split()
    scores = [_f1(tokens, _normalize(ref).split()) for ref in references]
    return sum(scores) / len(scores)
