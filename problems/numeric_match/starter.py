def numeric_match(
    expected: str, actual: str, mode: str = "whole", abs_tol: float = 0.0, rel_tol: float = 0.0
) -> bool | None:
    """Grade a numeric answer.

    Read one number from each text with the same `mode` ("whole", "first" or "last").
    Return None when `expected` holds no number (the pair is not judged), False when
    `actual` holds none, else whether |actual - expected| <= max(abs_tol, rel_tol * |expected|).
    Raise ValueError for an unknown mode.
    """
    raise NotImplementedError
