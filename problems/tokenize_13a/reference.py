import re

# Step 6 of the statement: four substitutions, applied in this order over the whole text.
_SUBSTITUTIONS = (
    # a space on each side of most ASCII punctuation (not ' , - .)
    (re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"), r" \1 "),
    # a period or comma after a character that is not an ASCII digit
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
    # a period or comma before a character that is not an ASCII digit
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
    # a hyphen after an ASCII digit
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),
)


def tokenize_13a(text: str) -> list[str]:
    """Split text into tokens with the 13a rules (mteval-v13a, as used for WMT BLEU)."""
    line = text.replace("<skipped>", "")
    line = line.replace("-\n", "")
    line = line.replace("\n", " ")
    line = line.replace("&quot;", '"')
    line = line.replace("&amp;", "&")
    line = line.replace("&lt;", "<")
    line = line.replace("&gt;", ">")
    line = f" {line} "
    for pattern, replacement in _SUBSTITUTIONS:
        line = pattern.sub(replacement, line)
    return line.split()
