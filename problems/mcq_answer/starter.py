def mcq_answer(reply: str, options: str = "ABCD") -> list[str]:
    """Read the chosen option letters out of a multiple-choice reply.

    `options` lists the valid option letters in upper case, e.g. "ABCD".
    A letter is chosen when it stands alone as a word (neighbours are not letters,
    digits, "_", apostrophes or "-"); either case counts, except that a lowercase
    "a" counts only as "(a" or "a)". Return the chosen letters in upper case, each
    once, in the order they appear in `options`.
    """
    raise NotImplementedError
