# verdict: wrong_answer
# Mistake: records an unreadable reply (a refusal, an off-format answer) as a score of 0, so a
# parsing failure looks like a bad answer.
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
    lines = [line.strip() for line in reply.split("\n") if line.strip()]
    if len(lines) != 2:
        return 0
    score = _after_label(lines[0], "SCORE")
    reason = _after_label(lines[1], "REASON")
    if score not in SCORES or not reason:
        return 0
    return SCORES[score]
