def near_miss_steps(expected: str, actual: str) -> list[str]:
    """Name the formatting steps that would turn a failed exact match into a pass.

    Return [] when the texts are already equal. Otherwise try each of the seven steps on its
    own, applied to both texts, and return the names of those that make them equal, in the
    fixed order. If none does, apply all seven in order; return ["several"] if that makes them
    equal, else [].
    """
    raise NotImplementedError
