def lcs_length(a: list[str], b: list[str]) -> int:
    """Return the length of a longest common subsequence of the token lists `a` and `b`.

    A subsequence keeps the order of the tokens but may skip any of them. Tokens are compared
    as exact strings. Lists can hold a few thousand tokens, so use dynamic programming.
    Do not modify either list.
    """
    raise NotImplementedError
