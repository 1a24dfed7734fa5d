# verdict: wrong_answer
# Mistake: rows are the predicted labels and columns the gold ones (the transpose).
def confusion_matrix(labels, gold, predicted):
    if len(gold) != len(predicted):
        raise ValueError("lengths differ")
    if len(set(labels)) != len(labels):
        raise ValueError("a label is listed twice")
    index = {label: i for i, label in enumerate(labels)}
    matrix = [[0] * len(labels) for _ in labels]
    for g, p in zip(gold, predicted, strict=True):
        if g not in index or p not in index:
            raise ValueError("unknown label")
        matrix[index[p]][index[g]] += 1
    return matrix
