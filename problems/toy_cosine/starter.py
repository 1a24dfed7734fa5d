def toy_cosine(candidate: str, reference: str) -> float | None:
    """Return the cosine between the mean word vectors of the two texts, or None.

    Normalize each text (lowercase, delete ASCII punctuation, split on whitespace, drop the
    articles a/an/the), map every token to its toy 2-d vector ((0, 0) for unknown words), and
    average the vectors. Return None when either mean is the zero vector or a text has no
    tokens; otherwise dot / (norm * norm).
    """
    raise NotImplementedError
