# verdict: wrong_answer
# Mistake: writes \d instead of [0-9]; in Python 3 \d also matches Arabic-Indic, full-width and
# other Unicode digits, so "٣.٥" is wrongly kept as one token.
import re

SUBSTITUTIONS = [
    (re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"), r" \1 "),
    (re.compile(r"(\D)([\.,])"), r"\1 \2 "),
    (re.compile(r"([\.,])(\D)"), r" \1 \2"),
    (re.compile(r"(\d)(-)"), r"\1 \2 "),
]


def tokenize_13a(text):
    line = text.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    line = line.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    line = f" {line} "
    for pattern, replacement in SUBSTITUTIONS:
        line = pattern.sub(replacement, line)
    return line.split()
