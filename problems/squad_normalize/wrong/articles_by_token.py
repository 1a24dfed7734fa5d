# verdict: wrong_answer
# Mistake: drops articles only when a whole whitespace-separated token equals one, so an article
# touching non-ASCII punctuation ("«the»", "the—end") survives.
import string


def squad_normalize(text):
    text = text.lower()
    text = "".join(ch for ch in text if ch not in string.punctuation)
    return " ".join(t for t in text.split() if t not in ("a", "an", "the"))
