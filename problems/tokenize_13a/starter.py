def tokenize_13a(text: str) -> list[str]:
    """Split `text` into tokens with the 13a rules used for BLEU.

    Follow the statement's steps in order: the four clean-ups (<skipped>, hyphen + newline,
    newlines, the four HTML entities), one space added on each side, the four substitutions,
    then a split on whitespace. Return the tokens as a list of strings.
    """
    raise NotImplementedError
