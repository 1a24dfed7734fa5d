# verdict: wrong_answer
# Mistake: uses string.punctuation (ASCII only) as the punctuation set: Unicode quotes and dashes
# survive, while ASCII symbols such as ~ ^ = | are wrongly removed.
import string
import unicodedata

PUNCT = set(string.punctuation) - set("+-%$#@&")


def normalize_answer(text, nfkc=True, ignore_case=True, trim_punctuation=True,
                     ignore_punctuation=False):
    if nfkc:
        text = unicodedata.normalize("NFKC", text)
    if ignore_case:
        text = text.casefold()
    if ignore_punctuation:
        text = "".join(ch for ch in text if ch not in PUNCT)
    elif trim_punctuation:
        text = text.strip("".join(PUNCT) + " \t\n\r\f\v")
    return " ".join(text.split())
