# verdict: wrong_answer
# Mistake: removes articles before deleting punctuation, so "the-cat" loses its "the".
import re
import string


def squad_normalize(text):
    text = text.lower()
    text = re.sub(r"\b(a|an|the)\b", " ", text)
    text = "".join(ch for ch in text if ch not in string.punctuation)
    return " ".join(text.split())
