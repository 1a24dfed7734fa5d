def statistical_ties(results: dict[str, tuple[int, int]]) -> list[str]:
    """Return the models whose 95% Wilson interval overlaps the leader's, sorted by name.

    `results` maps a model name to (correct, n). The leader has the highest accuracy (then more
    answers, then the name that sorts first) and is never in the list. Fewer than two models
    give []. Do not modify `results`.
    """
    raise NotImplementedError
