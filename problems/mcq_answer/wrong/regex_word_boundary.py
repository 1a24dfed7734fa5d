# verdict: wrong_answer
# Mistake: relies on the regex \b boundary, which treats apostrophes and hyphens as boundaries, so
# "I'd" chooses D and "A-level" chooses A.
import re


def mcq_answer(reply, options="ABCD"):
    chosen = set()
    for match in re.finditer(r"\b[A-Za-z]\b", reply):
        ch = match.group()
        start, end = match.span()
        if ch.upper() not in options:
            continue
        if ch == "a" and reply[start - 1:start] != "(" and reply[end:end + 1] != ")":
            continue
        chosen.add(ch.upper())
    return [letter for letter in options if letter in chosen]
