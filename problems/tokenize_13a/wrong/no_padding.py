# verdict: wrong_answer
# Mistake: skips step 5 (one space on each side), so a period at the very end after a digit
# ("costs 42.") or at the very start before a digit (".5") stays attached.
import re

SUBSTITUTIONS = [
    (re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"), r" \1 "),
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),
]


def tokenize_13a(text):
    line = text.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    line = line.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    for pattern, replacement in SUBSTITUTIONS:
        line = pattern.sub(replacement, line)
    return line.split()
