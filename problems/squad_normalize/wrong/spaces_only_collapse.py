# verdict: wrong_answer
# Mistake: collapses runs of the space character only, so tabs, newlines and other whitespace
# survive.
import re
import string


def squad_normalize(text):
    text = text.lower()
    text = "".join(ch for ch in text if ch not in string.punctuation)
    text = re.sub(r"\b(a|an|the)\b", " ", text)
    return re.sub(" +", " ", text).strip(" ")
