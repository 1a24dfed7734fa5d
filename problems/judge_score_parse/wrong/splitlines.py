# verdict: wrong_answer
# Mistake: splits with str.splitlines(), which also breaks lines at a lone "\r", "\u2028",
# "\x0b", "\x0c", "\x85" and more; the format only knows "\n" (and "\r\n").
SCORES = {text: value for value in range(6) for text in (str(value), f"[{value}]")}


def _after_label(line, label):
    head = line[: len(label)]
    if not (head.isascii() and head.upper() == label):
        return None
    rest = line[len(label):].lstrip()
    if not rest.startswith(":"):
        return None
    return rest[1:].strip()


def judge_score_parse(reply):
    lines = [line.strip() for line in reply.splitlines() if line.strip()]
    if len(lines) != 2:
        return None
    score = _after_label(lines[0], "SCORE")
    reason = _after_label(lines[1], "REASON")
    if score not in SCORES or not reason:
        return None
    return SCORES[score]
