def fleiss_kappa(counts: list[list[int]]) -> float:
    """Return Fleiss' kappa, (P_bar - P_e) / (1 - P_e), where counts[i][j] is the number of
    raters who put item i in category j and every item has the same number n >= 2 of raters.

    Raise ValueError when there are no items, the rows have different lengths, a count is
    negative, the items' rater totals differ, there are fewer than 2 raters per item, or P_e is
    1 (every rating in one category). Do not modify the argument.
    """
    raise NotImplementedError
