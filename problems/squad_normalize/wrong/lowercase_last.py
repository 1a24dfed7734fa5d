# verdict: wrong_answer
# Mistake: lowercases at the end instead of first, so capitalised articles ("The", "An")
# are not recognised.
import re
import string


def squad_normalize(text):
    text = "".join(ch for ch in text if ch not in string.punctuation)
    text = re.sub(r"\b(a|an|the)\b", " ", text)
    return " ".join(text.split()).lower()
