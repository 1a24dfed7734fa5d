# verdict: wrong_answer
# Mistake: silently skips an item whose gold or predicted label is not in labels.
def confusion_matrix(labels, gold, predicted):
    if len(gold) != len(predicted):
        raise ValueError("lengths differ")
    if len(set(labels)) != len(labels):
        raise ValueError("a label is listed twice")
    index = {label: i for i, label in enumerate(labels)}
    matrix = [[0] * len(labels) for _ in labels]
    for g, p in zip(gold, predicted, strict=True):
        if g in index and p in index:
            matrix[index[g]][index[p]] += 1
    return matrix
