# verdict: wrong_answer
# Mistake: stops at the first letter found, so "A and C" gives only ["A"].
def _joins(ch):
    """Characters that glue a letter into a longer word."""
    return ch.isalnum() or ch in "_'\u2019-"


def mcq_answer(reply: str, options: str = "ABCD") -> list[str]:
    """The option letters a multiple-choice reply chooses, in the order of `options`."""
    chosen = set()
    for i, ch in enumerate(reply):
        if not ("A" <= ch <= "Z" or "a" <= ch <= "z"):
            continue
        letter = ch.upper()
        if letter not in options:
            continue
        before = reply[i - 1] if i > 0 else ""
        after = reply[i + 1] if i + 1 < len(reply) else ""
        if (before and _joins(before)) or (after and _joins(after)):
            continue
        if ch == "a" and before != "(" and after != ")":
            continue  # a bare lowercase "a" is the English article
        return [letter]
    return []
