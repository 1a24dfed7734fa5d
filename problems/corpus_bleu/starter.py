def corpus_bleu(hypotheses: list[str], references: list[list[str]]) -> float:
    """Return the corpus-level BLEU-4 score of `hypotheses` against `references`.

    `references[i]` is the list of references of `hypotheses[i]`. Texts are tokenized with 13a
    after removing trailing whitespace. For every sentence, clip its n-gram counts (orders 1 to
    4) against the most generous single reference of that sentence and pick the reference
    length closest to its length (ties go to the shorter). Sum the clipped matches, the n-gram
    totals and both lengths over the corpus, then compute the four precisions and the brevity
    penalty once. No smoothing: if any order has no match (or no n-gram), return 0.0.
    Return a float in [0, 1].

    Raise ValueError if the two lists differ in length, if they are empty, or if some sentence
    has no reference. Do not modify the arguments.
    """
    raise NotImplementedError
