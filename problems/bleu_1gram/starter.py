def bleu_1gram(reference: list[str], candidate: list[str]) -> float:
    """Return the single-reference BLEU-1 score of `candidate` against `reference`.

    Both arguments are lists of tokens (already split). The score is the clipped unigram
    precision multiplied by the brevity penalty, as a Python float in [0, 1]. An empty
    candidate scores 0.0. Do not modify either list.
    """
    raise NotImplementedError
