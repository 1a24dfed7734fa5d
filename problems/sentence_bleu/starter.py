def sentence_bleu(hypothesis: str, references: list[str]) -> float:
    """Return the sentence-level BLEU-4 score of `hypothesis` against `references`.

    Texts are tokenized with 13a after removing trailing whitespace. Use clipped n-gram counts
    (orders 1 to 4) against the most generous single reference, drop orders for which the
    hypothesis has no n-grams, smooth orders without matches exponentially, and apply the
    brevity penalty with the closest reference length (ties go to the shorter). Return a float
    in [0, 1]; 0.0 when no n-gram matches at all. Do not modify `references`.
    """
    raise NotImplementedError
