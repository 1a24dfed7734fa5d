# verdict: wrong_answer
# Mistake: uses html.unescape for step 4. It decodes every entity (&AMP;, &#39;, &amp without a
# semicolon, ...) and decodes in one pass, so &amp;lt; becomes &lt; instead of <.
import html
import re

SUBSTITUTIONS = [
    (re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"), r" \1 "),
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),
]


def tokenize_13a(text):
    line = text.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    line = html.unescape(line)
    line = f" {line} "
    for pattern, replacement in SUBSTITUTIONS:
        line = pattern.sub(replacement, line)
    return line.split()
