# verdict: wrong_answer
# Mistake: replaces removed punctuation with a space instead of deleting it, so "U.S.A." with
# ignore_punctuation becomes "u s a" and "yes,no" becomes "yes no".
import unicodedata

KEEP = set("+-%$#@&")


def is_punct(ch):
    return ch not in KEEP and unicodedata.category(ch).startswith("P")


def normalize_answer(text, nfkc=True, ignore_case=True, trim_punctuation=True,
                     ignore_punctuation=False):
    if nfkc:
        text = unicodedata.normalize("NFKC", text)
    if ignore_case:
        text = text.casefold()
    if ignore_punctuation:
        text = "".join(" " if is_punct(ch) else ch for ch in text)
    elif trim_punctuation:
        while text and (is_punct(text[0]) or text[0].isspace()):
            text = text[1:]
        while text and (is_punct(text[-1]) or text[-1].isspace()):
            text = text[:-1]
    return " ".join(text.split())
