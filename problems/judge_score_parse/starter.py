def judge_score_parse(reply: str) -> int | None:
    """Return the score (an int from 0 to 5) of a judge reply in the format

        SCORE: <digit>
        REASON: <text>

    or None when the reply is not in that format (a refusal, an off-format answer, a score
    outside 0-5). Lines are split at "\\n" only and stripped; blank lines are ignored; exactly a
    score line and then a reason line must remain. See the statement for the exact rules.
    """
    raise NotImplementedError
