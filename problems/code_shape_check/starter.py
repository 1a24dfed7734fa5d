def code_shape_check(
    source: str, fn: str, arity: int, require: list[str] = [], forbid: list[str] = []
) -> dict:
    """Check the shape of a Python answer with the `ast` module, without running it.

    Return a dict with the keys "parses", "signature", "returns", "missing",
    "forbidden", "sdk_imports" and "passed" (see the statement for each rule).
    Do not modify `require` or `forbid`.
    """
    raise NotImplementedError
