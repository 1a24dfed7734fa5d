# verdict: wrong_answer
# Mistake: matches an article with the spaces around it, so in "a a a" every second article
# is skipped because its leading space was already consumed by the previous match.
import re
import string


def squad_normalize(text):
    text = text.lower()
    text = "".join(ch for ch in text if ch not in string.punctuation)
    text = re.sub(r" (a|an|the) ", " ", " " + text + " ")
    return " ".join(text.split())
