def exact_match_explain(expected: str, actual: str) -> dict:
    """Compare `expected` and `actual` as sequences of Unicode code points.

    Return a dict with exactly these keys:
      "match"           True when the two strings are identical
      "index"           first position (in code points) where they differ, or None if they match
      "expected_char"   the expected character at that position as "U+XXXX", or None
      "actual_char"     the actual character at that position as "U+XXXX", or None
      "whitespace_only" the texts differ, but not after str.strip() on both
      "case_only"       the texts differ, but not after str.casefold() on both
      "nfc_only"        the texts differ, but not after NFC normalization of both
      "nfkc_only"       the texts differ, but not after NFKC normalization of both
    """
    raise NotImplementedError
