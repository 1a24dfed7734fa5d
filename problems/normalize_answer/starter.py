def normalize_answer(
    text: str,
    nfkc: bool = True,
    ignore_case: bool = True,
    trim_punctuation: bool = True,
    ignore_punctuation: bool = False,
) -> str:
    """Normalize `text` the way answers and labels are normalized before comparison.

    Steps, in this order:
      1. nfkc: Unicode NFKC normalization.
      2. ignore_case: str.casefold().
      3. ignore_punctuation: delete every punctuation character; otherwise, if
         trim_punctuation, strip punctuation and whitespace from both ends.
      4. always: collapse runs of whitespace to one space and trim the ends.

    A punctuation character is one whose Unicode category starts with "P", except
    the seven characters + - % $ # @ & which are never punctuation.
    """
    raise NotImplementedError
