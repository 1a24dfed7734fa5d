# verdict: wrong_answer
# Mistake: lowercases with str.lower(), so "Straße" stays "straße" instead of "strasse".
import unicodedata

KEEP = set("+-%$#@&")


def is_punct(ch):
    return ch not in KEEP and unicodedata.category(ch).startswith("P")


def normalize_answer(text, nfkc=True, ignore_case=True, trim_punctuation=True,
                     ignore_punctuation=False):
    if nfkc:
        text = unicodedata.normalize("NFKC", text)
    if ignore_case:
        text = text.lower()
    if ignore_punctuation:
        text = "".join(ch for ch in text if not is_punct(ch))
    elif trim_punctuation:
        while text and (is_punct(text[0]) or text[0].isspace()):
            text = text[1:]
        while text and (is_punct(text[-1]) or text[-1].isspace()):
            text = text[:-1]
    return " ".join(text.split())
