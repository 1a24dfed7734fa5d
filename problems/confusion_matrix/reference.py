"""Reference solution for confusion_matrix: counts of (gold, predicted) pairs, rows gold, columns
predicted, both in the order of `labels`."""


def confusion_matrix(labels: list[str], gold: list[str], predicted: list[str]) -> list[list[int]]:
    if len(gold) != len(predicted):
        raise ValueError(f"{len(gold)} gold labels but {len(predicted)} predictions")
    index: dict[str, int] = {}
    for position, label in enumerate(labels):
        if label in index:
            raise ValueError(f"label {label!r} is listed twice in labels")
        index[label] = position
    # A fresh list per row: [[0] * n] * n would make every row the same list.
    matrix = [[0 for _ in labels] for _ in labels]
    for item, (g, p) in enumerate(zip(gold, predicted, strict=True)):
        if g not in index:
            raise ValueError(f"gold label {item} is {g!r}, which is not in labels")
        if p not in index:
            raise ValueError(f"predicted label {item} is {p!r}, which is not in labels")
        matrix[index[g]][index[p]] += 1
    return matrix
