# verdict: wrong_answer
# Mistake: treats the hyphen like the other ASCII punctuation, so refund-status becomes three
# tokens instead of one.
import re

SUBSTITUTIONS = [
    (re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/-])"), r" \1 "),
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
]


def tokenize_13a(text):
    line = text.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    line = line.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    line = f" {line} "
    for pattern, replacement in SUBSTITUTIONS:
        line = pattern.sub(replacement, line)
    return line.split()
