# verdict: wrong_answer
# Mistake: accepts a score line on its own; without its REASON line the reply is off-format.
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
    if len(lines) not in (1, 2):
        return None
    score = _after_label(lines[0], "SCORE")
    if score not in SCORES:
        return None
    if len(lines) == 2 and not _after_label(lines[1], "REASON"):
        return None
    return SCORES[score]
