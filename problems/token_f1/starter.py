def token_f1(prediction: str, references: list[str]) -> float:
    """Return the SQuAD-style token F1 of `prediction` against the best of `references`.

    Normalize both sides (lowercase, drop ASCII punctuation, drop the articles a/an/the,
    collapse whitespace), split into tokens, and compute the bag-of-tokens F1 against each
    reference; return the largest as a float. Both sides empty scores 1.0, exactly one side
    empty scores 0.0. Raise ValueError when `references` is empty. Do not modify `references`.
    """
    raise NotImplementedError
