# verdict: wrong_answer
# Mistake: [[0] * m] * m repeats one row list, so every count lands in every row.
def confusion_matrix(labels, gold, predicted):
    if len(gold) != len(predicted):
        raise ValueError("lengths differ")
    if len(set(labels)) != len(labels):
        raise ValueError("a label is listed twice")
    index = {label: i for i, label in enumerate(labels)}
    matrix = [[0] * len(labels)] * len(labels)
    for g, p in zip(gold, predicted, strict=True):
        if g not in index or p not in index:
            raise ValueError("unknown label")
        matrix[index[g]][index[p]] += 1
    return matrix
