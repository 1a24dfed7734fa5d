def extract_label(answer: str, labels: list[str]) -> str | None:
    """Map a free-form answer to one of `labels`.

    1. If the normalized answer equals a normalized label, return that label.
    2. Otherwise find every label inside the normalized answer (whole words for
       spaced scripts, anywhere for Thai, Lao, Myanmar, Khmer, kana and CJK);
       an occurrence lying inside a strictly longer label's occurrence does not
       count. If exactly one label is left, return it.
    3. Otherwise return None.

    Return labels exactly as written in `labels`. Do not modify `labels`.
    """
    raise NotImplementedError
