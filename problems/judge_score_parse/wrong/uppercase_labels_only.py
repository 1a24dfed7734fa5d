# verdict: wrong_answer
# Mistake: requires the labels in capitals; "Score: 4" and "reason: ..." are accepted too.
SCORES = {text: value for value in range(6) for text in (str(value), f"[{value}]")}


def _after_label(line, label):
    if not line.startswith(label):
        return None
    rest = line[len(label):].lstrip()
    if not rest.startswith(":"):
        return None
    return rest[1:].strip()


def judge_score_parse(reply):
    lines = [line.strip() for line in reply.split("\n") if line.strip()]
    if len(lines) != 2:
        return None
    score = _after_label(lines[0], "SCORE")
    reason = _after_label(lines[1], "REASON")
    if score not in SCORES or not reason:
        return None
    return SCORES[score]
