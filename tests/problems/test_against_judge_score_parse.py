"""judge_score_parse's reference against an independent reading of the statement: one regular
expression over the whole reply (no splitting, no stripping), on generated valid, near-valid and
hostile judge replies. No library parses this format, so the oracle is written here."""

from __future__ import annotations

import random
import re

from tests.problems.test_against_libraries import CASES, SEED, _assert_agree, _reference

# Whitespace that is not a line end. In Python 3.11, \s matches exactly the characters for which
# str.isspace() is true (checked below), and only "\n" ends a line.
WS = r"[^\S\n]"
FORMAT = re.compile(
    rf"(?:{WS}*\n)*"  # blank lines before
    rf"{WS}*[Ss][Cc][Oo][Rr][Ee]{WS}*:{WS}*(?:\[(?P<bracketed>[0-5])\]|(?P<bare>[0-5])){WS}*\n"
    rf"(?:{WS}*\n)*"  # blank lines between
    rf"{WS}*[Rr][Ee][Aa][Ss][Oo][Nn]{WS}*:[^\n]*\S[^\n]*"  # at least one non-whitespace character
    rf"(?:\n{WS}*)*"  # blank lines after
)
NONE = -1.0  # _assert_agree compares floats: "no score" is mapped to -1 on both sides

SCORE_LABELS = ("SCORE", "SCORE", "Score", "score", "sCORE", "\u017fcore", "SCORES", "SCOR", "\uff33CORE",
                "**SCORE**", "Rating", "S\u200bCORE")  # long s, full-width S, zero-width space
REASON_LABELS = ("REASON", "REASON", "Reason", "reason", "reaSON", "rea\u017fon", "REASONS", "Why",
                 "\u0280EASON")  # small capital R
COLONS = (":", ": ", " : ", "\t:\t", ":\u00a0", "\u3000:", ":\u2003", "", "::", "\uff1a", "=", ";")
SCORES = (
    "0", "1", "2", "3", "4", "5", "[0]", "[1]", "[2]", "[3]", "[4]", "[5]",  # the valid ones first
    "6", "7", "9", "\u0664", "\uff14", "\u0968", "\u00b2", "\u2463", "\u09e9",  # other digits
    "4/5", "4.5", "4.0", "-1", "+3", "04", "10", "[ 3 ]", "[3", "3]", "[[3]]", "(3)", "**3**", "three", "",
    "3.", "[0-5]", "[\uff13]", "3\u200b", "\ufeff3", "3 3", "3\u00a0", "3\t")
REASONS = ("The answer is right.", "[one sentence]", ".", "SCORE: 5", "\u7b54\u6848\u6b63\u786e\u3002",
           "\u200b", "\ufeff", "", " ", "\u00a0", "\t", "\u3000", "a\u2028b", "x\ry")
JUNK = ("I cannot evaluate this.", "Here is my evaluation:", "---", "```", "SCORE: 2", "Thanks!",
        "REASON: again", "\u200b", "\ufeff", "**", "4")
BLANKS = ("", " ", "\t", "\u00a0", " \t ", "\r", "\x0b", "\x0c", "\x85", "\u2028", "\u3000", "\x1c")
LINE_ENDS = ("\n", "\n", "\n", "\r\n", "\r\n", "\r\r\n", " \n", "\u00a0\n", "\x0b\n",
             "\r", "\u2028", "\u2029", "\x85", "\x0c", "\x1e", "")  # the last six are no line ends
PADDING = ("", "", "", " ", "  ", "\t", "\u00a0", "\u3000", "\ufeff", "\u200b", "\r")


def _maybe(rng: random.Random, pool: tuple[str, ...], valid: int) -> str:
    """Mostly one of the first `valid` atoms of pool (the well-formed ones), else any."""
    return rng.choice(pool[:valid]) if rng.random() < 0.85 else rng.choice(pool)


def _line(rng: random.Random, kind: str) -> str:
    if kind == "score":
        body = _maybe(rng, SCORE_LABELS, 5) + _maybe(rng, COLONS, 7) + _maybe(rng, SCORES, 12)
    elif kind == "reason":
        body = _maybe(rng, REASON_LABELS, 5) + _maybe(rng, COLONS, 7) + _maybe(rng, REASONS, 7)
    elif kind == "blank":
        return rng.choice(BLANKS)
    else:
        body = rng.choice(JUNK)
    return _maybe(rng, PADDING, 6) + body + _maybe(rng, PADDING, 6)


def _reply(rng: random.Random) -> str:
    kinds = ["score", "reason"]
    for _ in range(rng.choice((0, 0, 0, 1, 2))):  # blank lines anywhere
        kinds.insert(rng.randint(0, len(kinds)), "blank")
    roll = rng.random()
    if roll < 0.05:
        kinds.remove("reason")
    elif roll < 0.1:
        kinds.insert(rng.randint(0, len(kinds)), rng.choice(("score", "reason", "junk")))
    elif roll < 0.13:
        kinds = ["reason", "score"]
    elif roll < 0.16:
        kinds = ["junk"]
    reply = "".join(_line(rng, kind) + _maybe(rng, LINE_ENDS, 9) for kind in kinds)
    if rng.random() < 0.05 and reply:  # one character dropped or doubled
        i = rng.randrange(len(reply))
        reply = reply[:i] + (reply[i] * 2 if rng.random() < 0.5 else "") + reply[i + 1:]
    return reply


def _oracle(reply: str) -> float:
    match = FORMAT.fullmatch(reply)
    if match is None:
        return NONE
    return float(int(match.group("bracketed") or match.group("bare")))


def _ours(reply: str) -> float:
    value = _reference("judge_score_parse")(reply)
    assert value is None or (type(value) is int and 0 <= value <= 5), repr(value)
    return NONE if value is None else float(value)


def test_whitespace_class_is_isspace() -> None:
    # The oracle's WS relies on this; the statement defines whitespace as str.isspace().
    assert all((re.fullmatch(r"\s", chr(i)) is not None) == chr(i).isspace() for i in range(0x110000))


def test_judge_score_parse_matches_a_whole_reply_regex() -> None:
    rng = random.Random(SEED)
    cases = [_reply(rng) for _ in range(3 * CASES)]
    scored = sum(_oracle(reply) != NONE for reply in cases)
    # Both answers must be well represented, or the comparison proves little.
    print(f"{scored} of {len(cases)} generated replies hold a score")
    assert CASES // 2 <= scored <= len(cases) - CASES // 2, scored
    _assert_agree(cases, _ours, _oracle)


def test_statement_examples() -> None:
    examples = {
        "SCORE: 4\r\n\r\nREASON: Correct, but it skips the units.\r\n": 4.0,
        "SCORE: 0\nREASON: Wrong city.": 0.0,
        "I'm sorry, but I can't evaluate this answer.": NONE,
        "SCORE: 4/5\nREASON: Mostly right.": NONE,
        "SCORE: \u0664\nREASON: Good.": NONE,
        "SCORE: 4\rREASON: Good.": NONE,
        "\u017fcore: 4\nREASON: Good.": NONE,
        "SCORE: 4\nREASON: \u200b": 4.0,
        "SCORE: 3": NONE,
    }
    for reply, expected in examples.items():
        assert _ours(reply) == _oracle(reply) == expected, reply
