# verdict: wrong_answer
# Mistake: forgets the article rule, so "the answer is a" is read as option A.
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
        chosen.add(letter)
    return [letter for letter in options if letter in chosen]
