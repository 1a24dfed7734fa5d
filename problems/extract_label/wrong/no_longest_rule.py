# verdict: wrong_answer
# Mistake: ignores the longest-match rule, so "very positive" and the "positive" inside it count
# as two labels and the answer maps to nothing.
import unicodedata

KEEP = frozenset("+-%$#@&")

# Scripts written without spaces between words: labels containing any of these characters match
# anywhere in the answer. Thai and Lao, Myanmar, Khmer, Hiragana and Katakana, CJK ideographs.
SPACELESS = (
    (0x0E00, 0x0EFF),
    (0x1000, 0x109F),
    (0x1780, 0x17FF),
    (0x3040, 0x30FF),
    (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF),
)


def _is_punct(ch):
    return ch not in KEEP and unicodedata.category(ch).startswith("P")


def _normalize(text):
    text = unicodedata.normalize("NFKC", text).casefold()
    start, end = 0, len(text)
    while start < end and (_is_punct(text[start]) or text[start].isspace()):
        start += 1
    while end > start and (_is_punct(text[end - 1]) or text[end - 1].isspace()):
        end -= 1
    return " ".join(text[start:end].split())


def _spaceless(label):
    return any(lo <= ord(ch) <= hi for ch in label for lo, hi in SPACELESS)


def _is_word(ch):
    return ch.isalnum() or ch == "_"


def extract_label(answer: str, labels: list[str]) -> str | None:
    """Map a free-form answer to one of `labels`, or None when it names none or several."""
    text = _normalize(answer)
    normalized = [_normalize(label) for label in labels]
    for label, norm in zip(labels, normalized):
        if norm and norm == text:
            return label

    spans = []  # (start, end, index of the label)
    for index, norm in enumerate(normalized):
        if not norm:
            continue
        anywhere = _spaceless(norm)
        start = text.find(norm)
        while start != -1:
            end = start + len(norm)
            if anywhere or (
                (start == 0 or not _is_word(text[start - 1]))
                and (end == len(text) or not _is_word(text[end]))
            ):
                spans.append((start, end, index))
            start = text.find(norm, start + 1)

    present = set()
    for start, end, index in spans:
        hidden = False
        if not hidden:
            present.add(index)
    if len(present) == 1:
        return labels[present.pop()]
    return None
