def chrf(hypothesis: str, references: list[str]) -> float:
    """Return the chrF score of `hypothesis` against the best of `references`.

    Remove all whitespace, count character n-grams of orders 1 to 6 with clipping, average
    precision and recall over the orders where both sides have n-grams, and combine them with
    beta = 2. Return the best score over the references as a float in [0, 1]. Do not modify
    `references`.
    """
    raise NotImplementedError
