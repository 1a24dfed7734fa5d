# verdict: wrong_answer
# Mistake: searches the first "SCORE: n" anywhere in the reply, so a preamble, a second SCORE
# line, a missing REASON line, "4/5" and "4.5" are all read as scores.
import re

SCORE = re.compile(r"[Ss][Cc][Oo][Rr][Ee]\s*:\s*\[?([0-5])\]?")


def judge_score_parse(reply):
    match = SCORE.search(reply)
    return int(match.group(1)) if match else None
