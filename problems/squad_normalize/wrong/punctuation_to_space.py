# verdict: wrong_answer
# Mistake: replaces punctuation with a space instead of deleting it, so "don't" becomes "don t".
import re
import string


def squad_normalize(text):
    text = text.lower()
    text = "".join(" " if ch in string.punctuation else ch for ch in text)
    text = re.sub(r"\b(a|an|the)\b", " ", text)
    return " ".join(text.split())
