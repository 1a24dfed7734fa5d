# verdict: wrong_answer
# Mistake: matches the digit with \d and converts it with int(), which also accept Arabic-Indic
# digits such as "\u0664" and full-width ones such as "\uff14" as 4.
import re

SCORE = re.compile(r"[Ss][Cc][Oo][Rr][Ee]\s*:\s*(?:\[(\d)\]|(\d))")
REASON = re.compile(r"[Rr][Ee][Aa][Ss][Oo][Nn]\s*:\s*\S.*")


def judge_score_parse(reply):
    lines = [line.strip() for line in reply.split("\n") if line.strip()]
    if len(lines) != 2:
        return None
    score = SCORE.fullmatch(lines[0])
    if not score or not REASON.fullmatch(lines[1]):
        return None
    value = int(score.group(1) or score.group(2))
    return value if 0 <= value <= 5 else None
