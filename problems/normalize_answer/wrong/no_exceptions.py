# verdict: wrong_answer
# Mistake: treats every character of category P as punctuation and forgets the exceptions, so the
# hyphen-minus, %, #, @ and & are trimmed or removed ("-5" becomes "5").
import unicodedata


def is_punct(ch):
    return unicodedata.category(ch).startswith("P")


def normalize_answer(text, nfkc=True, ignore_case=True, trim_punctuation=True,
                     ignore_punctuation=False):
    if nfkc:
        text = unicodedata.normalize("NFKC", text)
    if ignore_case:
        text = text.casefold()
    if ignore_punctuation:
        text = "".join(ch for ch in text if not is_punct(ch))
    elif trim_punctuation:
        while text and (is_punct(text[0]) or text[0].isspace()):
            text = text[1:]
        while text and (is_punct(text[-1]) or text[-1].isspace()):
            text = text[:-1]
    return " ".join(text.split())
