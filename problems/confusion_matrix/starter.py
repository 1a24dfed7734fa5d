def confusion_matrix(labels: list[str], gold: list[str], predicted: list[str]) -> list[list[int]]:
    """Return the confusion matrix as a list of rows: matrix[i][j] is the number of items whose
    gold label is labels[i] and whose predicted label is labels[j].

    Raise ValueError when gold and predicted differ in length, a label is listed twice in
    `labels`, or a gold or predicted value is not in `labels`. Empty gold and predicted lists
    give a matrix of zeros. Do not modify the arguments.
    """
    raise NotImplementedError
