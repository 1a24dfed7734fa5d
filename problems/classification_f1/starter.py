def classification_f1(y_true: list[str], y_pred: list[str], average: str = "macro",
                      labels: list[str] | None = None) -> float:
    """Return the F1 score of `y_pred` against `y_true`, averaged over a set of labels.

    `average` is "macro" (mean of the per-class F1), "micro" (F1 of the pooled counts) or
    "weighted" (per-class F1 weighted by the number of gold examples). The classes are `labels`
    when given, otherwise the distinct values of `y_true`. A class absent from both lists
    scores 0. Raise ValueError for lists of different lengths or an unknown `average`.
    Do not modify the arguments.
    """
    raise NotImplementedError
