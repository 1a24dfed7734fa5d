def extract_number(text: str, mode: str) -> float | None:
    """Read one number from `text`.

    mode "whole": the whole text, after str.strip(), must be a number.
    mode "first" / "last": the first / last number found in the text.

    A number is ASCII digits, optionally with commas as exact three-digit group
    separators and a decimal part ("1,234.5"). Return it as a float, or None when
    there is none. Raise ValueError for any other mode.
    """
    raise NotImplementedError
