# verdict: wrong_answer
# Mistake: deletes every Unicode punctuation character (categories P*), not only the ASCII ones.
import re
import unicodedata


def squad_normalize(text):
    text = text.lower()
    text = "".join(ch for ch in text if not unicodedata.category(ch).startswith("P"))
    text = re.sub(r"\b(a|an|the)\b", " ", text)
    return " ".join(text.split())
