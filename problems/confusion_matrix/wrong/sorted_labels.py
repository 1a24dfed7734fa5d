# verdict: wrong_answer
# Mistake: lays the rows and columns out in sorted order instead of the order of labels.
def confusion_matrix(labels, gold, predicted):
    if len(gold) != len(predicted):
        raise ValueError("lengths differ")
    if len(set(labels)) != len(labels):
        raise ValueError("a label is listed twice")
    index = {label: i for i, label in enumerate(sorted(labels))}
    matrix = [[0] * len(labels) for _ in labels]
    for g, p in zip(gold, predicted, strict=True):
        if g not in index or p not in index:
            raise ValueError("unknown label")
        matrix[index[g]][index[p]] += 1
    return matrix
