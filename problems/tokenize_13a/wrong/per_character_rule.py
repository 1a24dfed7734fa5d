# verdict: wrong_answer
# Mistake: rewrites rules b and c as "split a period or comma unless both neighbours are digits",
# looking at the original neighbours of every character. That misses how re.sub consumes
# characters: in "x ..5" the second period must stay attached to the 5.
import re

PUNCTUATION = set("{|}~[\\]^_` !\"#$%&()*+:;<=>?@/")
DIGITS = set("0123456789")


def tokenize_13a(text):
    line = text.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    line = line.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    line = f" {line} "
    out = []
    for i, ch in enumerate(line):
        if ch in PUNCTUATION:
            out.append(f" {ch} ")
        elif ch in ".,":
            both_digits = line[i - 1] in DIGITS and line[i + 1] in DIGITS
            out.append(ch if both_digits else f" {ch} ")
        elif ch == "-" and line[i - 1] in DIGITS:
            out.append(" - ")
        else:
            out.append(ch)
    return "".join(out).split()
