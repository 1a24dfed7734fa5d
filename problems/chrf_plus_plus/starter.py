def chrf_plus_plus(hypothesis: str, references: list[str]) -> float:
    """Return the chrF++ score of `hypothesis` against the best of `references`.

    Character n-grams of orders 1 to 6 are counted after removing all whitespace, as in chrF.
    Word n-grams of orders 1 and 2 are counted over words: split on whitespace, then a word of
    two or more characters that ends in ASCII punctuation loses that one final character to a
    separate word (otherwise, if it starts with ASCII punctuation, it loses the first one).
    With clipped matches, average precision and recall over the usable orders of all eight
    (six character, two word), and combine them with beta = 2. Return the best score over the
    references as a float in [0, 1]. Do not modify `references`.
    """
    raise NotImplementedError
