# verdict: wrong_answer
# Mistake: collapses whitespace first and trims only punctuation afterwards, so a space left
# between the text and a trimmed mark survives: '"yes ."' gives 'yes ' instead of 'yes'.
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
    text = " ".join(text.split())
    if ignore_punctuation:
        text = "".join(ch for ch in text if not is_punct(ch))
    elif trim_punctuation:
        while text and is_punct(text[0]):
            text = text[1:]
        while text and is_punct(text[-1]):
            text = text[:-1]
    return text
