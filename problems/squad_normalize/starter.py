def squad_normalize(text: str) -> str:
    """Return `text` normalized the way SQuAD answers are before comparison.

    In this order: lowercase; delete every ASCII punctuation character; replace each whole-word
    article (a, an, the) by a space; collapse every run of whitespace into one space and trim
    both ends.
    """
    raise NotImplementedError
