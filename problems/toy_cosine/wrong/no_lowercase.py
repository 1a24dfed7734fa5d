# verdict: wrong_answer
# Mistake: forgets to lowercase, so 'CAT', 'The' and 'Mat' are not recognized.

import math
import string

VECTORS = {
    "cat": (1.0, 0.0), "feline": (1.0, 0.0),
    "sat": (0.0, 1.0), "sit": (0.0, 1.0), "rested": (0.0, 1.0),
    "mat": (1.0, 1.0), "rug": (1.0, 1.0),
}
ARTICLES = {"a", "an", "the"}
_DROP_PUNCTUATION = str.maketrans("", "", string.punctuation)


def _tokens(text: str) -> list[str]:
    text = text.translate(_DROP_PUNCTUATION)
    return [token for token in text.split() if token not in ARTICLES]


def _mean_vector(text: str) -> tuple[float, float] | None:
    tokens = _tokens(text)
    if not tokens:
        return None
    x = sum(VECTORS.get(token, (0.0, 0.0))[0] for token in tokens) / len(tokens)
    y = sum(VECTORS.get(token, (0.0, 0.0))[1] for token in tokens) / len(tokens)
    if x == 0.0 and y == 0.0:
        return None
    return x, y


def toy_cosine(candidate: str, reference: str) -> float | None:
    a = _mean_vector(candidate)
    b = _mean_vector(reference)
    if a is None or b is None:
        return None
    dot = a[0] * b[0] + a[1] * b[1]
    return dot / math.sqrt((a[0] * a[0] + a[1] * a[1]) * (b[0] * b[0] + b[1] * b[1]))
