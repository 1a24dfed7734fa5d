def short_answer_match(reply: str, expected: str, aliases: list[str] = []) -> bool:
    """Does the reply contain the expected phrase (or an alias) on word boundaries?

    Normalize both sides: NFKC, casefold, collapse whitespace, and remove a space or
    comma that sits between a digit and exactly three digits (299 792 -> 299792).
    Then look for the phrase anywhere in the reply where the characters just before
    and just after it are not letters, digits or "_". Do not modify `aliases`.
    """
    raise NotImplementedError
