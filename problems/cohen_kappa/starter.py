def cohen_kappa(gold: list[str], predicted: list[str]) -> float:
    """Return Cohen's kappa, (p_o - p_e) / (1 - p_e), of two raters who labelled the same items.

    p_o is the share of items on which they agree; p_e is the chance agreement from each rater's
    own label frequencies. Raise ValueError when the lists differ in length, are empty, or p_e
    is 1 (both raters always give the same single label). Do not modify the arguments.
    """
    raise NotImplementedError
