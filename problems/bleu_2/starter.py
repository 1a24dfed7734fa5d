def bleu_2(reference: list[str], candidate: list[str]) -> float:
    """Return the unsmoothed single-reference BLEU-2 score of `candidate` against `reference`.

    Both arguments are lists of tokens. The score is the brevity penalty times the geometric
    mean of the clipped unigram precision p1 and the clipped bigram precision p2. An order with
    no candidate n-grams has precision 0, and an empty candidate scores 0.0. Return a float and
    do not modify either list.
    """
    raise NotImplementedError
