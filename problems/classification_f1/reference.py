"""Reference solution for classification_f1: macro, micro or weighted F1 over a label set."""

AVERAGES = ("macro", "micro", "weighted")


def classification_f1(y_true: list[str], y_pred: list[str], average: str = "macro",
                      labels: list[str] | None = None) -> float:
    if len(y_true) != len(y_pred):
        raise ValueError("y_true and y_pred must have the same length")
    if average not in AVERAGES:
        raise ValueError(f"average must be one of {AVERAGES}")
    # Without labels: the distinct gold labels. With labels: exactly those, duplicates once.
    label_set = sorted(set(y_true)) if labels is None else list(dict.fromkeys(labels))
    if not label_set:
        return 0.0

    tp = {label: 0 for label in label_set}
    fp = {label: 0 for label in label_set}
    fn = {label: 0 for label in label_set}
    for truth, guess in zip(y_true, y_pred):
        if truth == guess:
            if truth in tp:
                tp[truth] += 1
        else:
            if guess in fp:
                fp[guess] += 1
            if truth in fn:
                fn[truth] += 1

    def f1(t: int, p: int, n: int) -> float:
        denominator = 2 * t + p + n
        return 2 * t / denominator if denominator else 0.0

    if average == "micro":
        return f1(sum(tp.values()), sum(fp.values()), sum(fn.values()))
    scores = {label: f1(tp[label], fp[label], fn[label]) for label in label_set}
    if average == "macro":
        return sum(scores.values()) / len(label_set)
    support = {label: tp[label] + fn[label] for label in label_set}
    total = sum(support.values())
    if total == 0:
        return 0.0
    return sum(scores[label] * support[label] for label in label_set) / total
