# verdict: wrong_answer
# Mistake: uses re.IGNORECASE for the labels; under Unicode matching it lets the long s
# "\u017f" stand for "s", so "\u017fcore: 4" is read as a score.
import re

SCORE = re.compile(r"score\s*:\s*(?:\[([0-5])\]|([0-5]))", re.IGNORECASE)
REASON = re.compile(r"reason\s*:\s*\S.*", re.IGNORECASE)


def judge_score_parse(reply):
    lines = [line.strip() for line in reply.split("\n") if line.strip()]
    if len(lines) != 2:
        return None
    score = SCORE.fullmatch(lines[0])
    if not score or not REASON.fullmatch(lines[1]):
        return None
    return int(score.group(1) or score.group(2))
