import unicodedata

KEEP = frozenset("+-%$#@&")


def _is_punct(ch):
    return ch not in KEEP and unicodedata.category(ch).startswith("P")


def normalize_answer(
    text: str,
    nfkc: bool = True,
    ignore_case: bool = True,
    trim_punctuation: bool = True,
    ignore_punctuation: bool = False,
) -> str:
    """Normalize a short answer or label before comparing it."""
    if nfkc:
        text = unicodedata.normalize("NFKC", text)
    if ignore_case:
        text = text.casefold()
    if ignore_punctuation:
        text = "".join(ch for ch in text if not _is_punct(ch))
    elif trim_punctuation:
        start, end = 0, len(text)
        while start < end and (_is_punct(text[start]) or text[start].isspace()):
            start += 1
        while end > start and (_is_punct(text[end - 1]) or text[end - 1].isspace()):
            end -= 1
        text = text[start:end]
    return " ".join(text.split())
