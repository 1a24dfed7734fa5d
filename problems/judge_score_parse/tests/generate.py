"""Rebuild tests/hidden.json for judge_score_parse deterministically.

Run from anywhere: python problems/judge_score_parse/tests/generate.py
Expected values come from reference.py; the random cases use a fixed seed, so the output is stable.
Non-ASCII characters are written as escapes; the comments say what they are.
"""

import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 5050
OK = "\nREASON: Fine."

HAND = [
    # Valid replies, every score and both spellings.
    ("score_zero", "SCORE: 0\nREASON: Wrong answer."),
    ("score_one", "SCORE: 1" + OK),
    ("score_two_bracketed", "SCORE: [2]" + OK),
    ("score_three", "SCORE: 3" + OK),
    ("score_four_bracketed", "SCORE: [4]" + OK),
    ("score_five", "SCORE: 5\nREASON: Exactly the expected answer."),
    ("score_zero_bracketed", "SCORE: [0]" + OK),
    ("score_five_bracketed", "SCORE: [5]" + OK),
    # Case, spaces, line ends, blank lines.
    ("label_title_case", "Score: 3\nReason: Close."),
    ("label_lower_case", "score: 3\nreason: close."),
    ("label_mixed_case", "sCoRe: 2\nReAsOn: x"),
    ("no_space_after_colon", "SCORE:4\nREASON:Good."),
    ("space_before_colon", "SCORE : 4\nREASON : Good."),
    ("tabs_around_colon", "SCORE\t:\t4\nREASON\t:\tGood."),
    ("nbsp_around_colon", "SCORE\u00a0:\u00a04" + OK),  # no-break spaces are whitespace
    ("ideographic_space_after_colon", "SCORE:\u30004" + OK),
    ("crlf_line_ends", "SCORE: 4\r\nREASON: Good.\r\n"),
    ("leading_trailing_blank_lines", "\n\n  SCORE: 1  \n\n\t\nREASON: Poor.\n\n"),
    ("whitespace_only_lines_between", "SCORE: 1\n \t \u00a0\nREASON: Poor."),
    ("trailing_spaces_on_lines", "SCORE: 1   \nREASON: Poor.   "),
    ("vertical_tab_at_line_end", "SCORE: 2\x0b\nREASON: ok"),  # stripped, not a line break
    ("reason_placeholder_text", "SCORE: 3\nREASON: [one sentence]"),
    ("reason_mentions_score", "SCORE: 3\nREASON: It deserves SCORE: 5, but is too long."),
    ("reason_non_ascii", "SCORE: 5\nREASON: \u7b54\u6848\u6b63\u786e\u3002"),  # Chinese sentence
    ("reason_single_char", "SCORE: 5\nREASON: ."),
    # Refusals and other replies without the format.
    ("empty_reply", ""),
    ("whitespace_reply", " \n\t\r\n "),
    ("refusal", "I cannot evaluate this."),
    ("refusal_with_reason_line", "I cannot score this.\nREASON: The question is unclear."),
    ("only_reason_line", "REASON: No score given."),
    ("lines_swapped", "REASON: Good.\nSCORE: 4"),
    ("preamble_line", "Here is my evaluation:\nSCORE: 4\nREASON: Good."),
    ("trailing_comment_line", "SCORE: 4\nREASON: Good.\nLet me know if you need more."),
    ("second_score_line_after_reason", "SCORE: 4\nREASON: Good.\nSCORE: 5"),
    ("two_score_lines_same_value", "SCORE: 4\nSCORE: 4\nREASON: Good."),
    ("reason_on_two_lines", "SCORE: 4\nREASON: Good,\nbut short."),
    ("score_and_reason_on_one_line", "SCORE: 4 REASON: Good."),
    ("missing_reason_with_blank_lines", "\nSCORE: 4\n\n"),
    ("empty_reason", "SCORE: 4\nREASON:"),
    ("blank_reason", "SCORE: 4\nREASON: \t \u00a0"),
    ("reason_zero_width_space", "SCORE: 4\nREASON: \u200b"),  # not whitespace: a reason
    # Line breaks other than "\n".
    ("lone_carriage_return", "SCORE: 4\rREASON: Good."),
    ("line_separator_u2028", "SCORE: 4\u2028REASON: Good."),
    ("next_line_u0085", "SCORE: 4\x85REASON: Good."),
    ("form_feed_between", "SCORE: 4\x0cREASON: Good."),
    ("double_carriage_return", "SCORE: 4\r\r\nREASON: Good."),  # both \r stripped
    # Scores that are not a single digit 0-5.
    ("score_six", "SCORE: 6" + OK),
    ("score_nine", "SCORE: 9" + OK),
    ("score_ten", "SCORE: 10" + OK),
    ("score_minus_one", "SCORE: -1" + OK),
    ("score_plus_four", "SCORE: +4" + OK),
    ("score_leading_zero", "SCORE: 04" + OK),
    ("score_four_point_zero", "SCORE: 4.0" + OK),
    ("score_four_point_five", "SCORE: 4.5" + OK),
    ("score_trailing_period", "SCORE: 4." + OK),
    ("score_out_of_five", "SCORE: 4/5" + OK),
    ("score_out_of_five_spaced", "SCORE: 4 / 5" + OK),
    ("score_range_placeholder", "SCORE: [0-5]" + OK),
    ("score_spaces_in_brackets", "SCORE: [ 4 ]" + OK),
    ("score_open_bracket_only", "SCORE: [4" + OK),
    ("score_close_bracket_only", "SCORE: 4]" + OK),
    ("score_double_brackets", "SCORE: [[4]]" + OK),
    ("score_parentheses", "SCORE: (4)" + OK),
    ("score_bold", "SCORE: **4**" + OK),
    ("label_bold", "**SCORE:** 4" + OK),
    ("score_word", "SCORE: four" + OK),
    ("score_missing", "SCORE:" + OK),
    ("score_with_comment", "SCORE: 4 (good)" + OK),
    ("score_arabic_indic_four", "SCORE: \u0664" + OK),  # ARABIC-INDIC DIGIT FOUR
    ("score_fullwidth_four", "SCORE: \uff14" + OK),  # FULLWIDTH DIGIT FOUR
    ("score_fullwidth_bracketed", "SCORE: [\uff13]" + OK),
    ("score_devanagari_two", "SCORE: \u0968" + OK),  # DEVANAGARI DIGIT TWO
    ("score_superscript_two", "SCORE: \u00b2" + OK),
    ("score_zero_width_space_after", "SCORE: 4\u200b" + OK),  # not whitespace
    # Labels and colons that are not the format's.
    ("no_colon", "SCORE 4" + OK),
    ("double_colon", "SCORE:: 4" + OK),
    ("equals_sign", "SCORE = 4" + OK),
    ("fullwidth_colon", "SCORE\uff1a4" + OK),  # FULLWIDTH COLON
    ("label_plural", "SCORES: 4" + OK),
    ("label_truncated", "SCOR: 4" + OK),
    ("label_rating", "Rating: 4" + OK),
    ("label_spaced_letters", "S C O R E: 4" + OK),
    ("label_long_s", "\u017fcore: 4" + OK),  # LATIN SMALL LETTER LONG S, upper-cases to S
    ("reason_label_long_s", "SCORE: 4\nrea\u017fon: Good."),
    ("label_fullwidth_letters", "\uff33\uff23\uff2f\uff32\uff25: 4" + OK),  # FULLWIDTH SCORE
    ("label_dotted_capital_i_not_involved", "SCORE: 4\nREASON\u0130: Good."),
    ("reason_label_reasoning", "SCORE: 4\nREASONING: Good."),
    ("reason_label_explanation", "SCORE: 4\nExplanation: Good."),
    ("reason_no_colon", "SCORE: 4\nREASON Good."),
    ("bom_before_label", "\ufeffSCORE: 4" + OK),  # byte order mark: not whitespace
    ("markdown_list_marker", "- SCORE: 4\n- REASON: Good."),
    ("quoted_reply", '"SCORE: 4\nREASON: Good."'),
    ("code_fence", "```\nSCORE: 4\nREASON: Good.\n```"),
]

# Each part of a generated reply comes from a valid pool most of the time and from a near-valid
# or hostile one otherwise, so that about half of the replies hold a score.
LABELS = (["SCORE", "SCORE", "Score", "score", "ScOrE"],
          ["\u017fcore", "SCORES", "SCOR", "Rating", "**SCORE**", "\uff33CORE", "S CORE"])
COLONS = ([":", ": ", " : ", ":\t", "\t:", ":\u00a0"], ["", "::", "\uff1a", "=", " -"])
SCORE_TEXTS = ([str(d) for d in range(6)] + [f"[{d}]" for d in range(6)], [
    "6", "-1", "+3", "04", "4.0", "2.5", "4/5", "[ 4 ]", "[4", "4]", "(4)", "**4**", "\u0664", "\uff14",
    "four", "", "10", "3.", "[[3]]", "N/A", "5\u200b", "[0-5]", "\u0968"])
REASON_LABELS = (["REASON", "REASON", "Reason", "reason"],
                 ["rea\u017fon", "REASONING", "Why", "REASON\u0130"])
REASON_TEXTS = (["The answer matches.", "Partly right.", "[one sentence]", "x", "SCORE: 5",
                 "\u7b54\u6848\u6b63\u786e\u3002", "\u200b", "4/5 overall.", "It is 3.5 out of 5 at best"],
                ["", " ", "\u00a0", "\t"])
BREAKS = (["\n", "\n", "\r\n", "\n\n", "\r\n\r\n", " \n", "\n \t\n", "\u00a0\n", "\r\r\n"],
          ["\r", "\u2028", "\x85", "\x0c", "\x0b", "", " ", "\t"])
EDGES = (["", "", "", "\n", "  ", "\r\n", "\n\n", "\u00a0", "\t\n"],
         ["\ufeff", "Here is my evaluation:\n", "\nSCORE: 2", "\nLet me know!", "\u200b", "\n\u200b"])


def _pick(rng, pools):
    valid, hostile = pools
    return rng.choice(valid) if rng.random() < 0.94 else rng.choice(hostile)


def random_reply(rng):
    score_line = _pick(rng, LABELS) + _pick(rng, COLONS) + _pick(rng, SCORE_TEXTS)
    reason_line = _pick(rng, REASON_LABELS) + _pick(rng, COLONS) + _pick(rng, REASON_TEXTS)
    roll = rng.random()
    if roll < 0.06:
        body = score_line  # no reason line
    elif roll < 0.1:
        body = reason_line + _pick(rng, BREAKS) + score_line  # swapped
    elif roll < 0.14:
        body = score_line + _pick(rng, BREAKS) + score_line + _pick(rng, BREAKS) + reason_line
    else:
        body = score_line + _pick(rng, BREAKS) + reason_line
    return _pick(rng, EDGES) + body + _pick(rng, EDGES)


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    inputs = []
    for _ in range(count):
        reply = rng.choice(HAND)[1] if rng.random() < 0.2 else random_reply(rng)
        inputs.append(([reply], {}))
    return inputs


def main():
    reference = load_reference(FOLDER).judge_score_parse
    rng = random.Random(SEED)
    cases = [(name, [reply]) for name, reply in HAND]
    for i in range(40):
        cases.append((f"random_{i:02d}", [random_reply(rng)]))
    write_hidden(FOLDER, cases, reference,
                 check=lambda value: value is None or (type(value) is int and 0 <= value <= 5))


if __name__ == "__main__":
    main()
