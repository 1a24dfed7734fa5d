"""Reference solution for judge_score_parse: the score of a "SCORE: n / REASON: ..." reply."""

# The accepted spellings of a score: one ASCII digit 0-5, bare or directly inside brackets.
SCORES = {text: value for value in range(6) for text in (str(value), f"[{value}]")}


def _after_label(line: str, label: str) -> str | None:
    """What follows `label` (ASCII letters, any case), optional whitespace and a colon, stripped;
    None when the line does not start that way."""
    head = line[: len(label)]
    # isascii() first: "\u017f" (long s) upper-cases to "S", but it is not the letter S.
    if not (head.isascii() and head.upper() == label):
        return None
    rest = line[len(label):].lstrip()
    if not rest.startswith(":"):
        return None
    return rest[1:].strip()


def judge_score_parse(reply: str) -> int | None:
    # Only "\n" ends a line; strip() then removes the "\r" of a "\r\n" and any other
    # surrounding whitespace. Blank lines are dropped wherever they are.
    lines = [line.strip() for line in reply.split("\n")]
    lines = [line for line in lines if line]
    if len(lines) != 2:
        return None  # a refusal, a preamble, a missing REASON line, a second SCORE line...
    score = _after_label(lines[0], "SCORE")
    reason = _after_label(lines[1], "REASON")
    if score not in SCORES or not reason:
        return None
    return SCORES[score]
