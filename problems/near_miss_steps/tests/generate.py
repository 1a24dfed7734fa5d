"""Rebuild tests/hidden.json for near_miss_steps deterministically.

Run from anywhere: python problems/near_miss_steps/tests/generate.py
Expected values come from reference.py in the problem folder.
"""

import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 7007


EDGE_CASES = [
    ("blackletter_h_lowercase_before_nfkc", "hello", "\u210cello"),
    ("math_bold_letters_stay_uppercase", "abc", "\U0001d400\U0001d401\U0001d402"),
    ("double_struck_r_and_period", "real.", "\u211deal!"),
    ("fullwidth_needs_lowercase_and_nfkc", "\uff21\uff22\uff23", "abc"),
    ("fullwidth_lowercase_alone", "\uff21\uff22\uff23", "\uff41\uff42\uff43"),
    ("nfkc_alone_fullwidth", "ABC", "\uff21\uff22\uff23"),
    ("nfkc_alone_ligature", "a fi", "a \ufb01"),
    ("trim_and_nfkc_nbsp", " x", "\u00a0x"),
    ("trim_alone_leading_space", "abc", " abc"),
    ("trim_alone_trailing_newline", "abc", "abc\n"),
    ("trim_ideographic_space", "abc", "\u3000abc\u3000"),
    ("collapse_does_not_trim", "a b", " a  b"),
    ("collapse_mixed_whitespace", "a b", "a\t \u00a0b"),
    ("trailing_space_only_trim", "a b", "a b "),
    ("join_underscore_alone", "refund_status", "refund status"),
    ("join_underscore_run", "refund_status", "refund \t status"),
    ("join_underscore_keeps_edges", "_a_b", " a b"),
    ("quotes_on_expected_side", "\"Paris\"", "Paris"),
    ("single_quotes_stripped", "Paris", "'Paris'"),
    ("mixed_quote_kinds", "Paris", "\u2018\"Paris\"\u2019"),
    ("quote_inside_not_stripped", "its", "it's"),
    ("guillemets_not_quotes", "Paris", "\u00abParis\u00bb"),
    ("period_versus_exclamation", "Paris.", "Paris!"),
    ("exclamation_alone", "Paris", "Paris!"),
    ("period_then_space_not_stripped_alone", "Paris", "Paris. "),
    ("period_then_space_several", "paris", "Paris. "),
    ("uppercase_with_period_several", "paris", "PARIS."),
    ("both_have_marks_several", "Paris!", "paris."),
    ("empty_versus_space", "", " "),
    ("empty_versus_period", "", "."),
    ("empty_versus_quotes", "", "\"\""),
    ("empty_versus_word", "", "x"),
    ("sharp_s_not_casefolded", "STRASSE", "stra\u00dfe"),
    ("dotted_capital_i", "istanbul", "\u0130stanbul"),
    ("combining_accent_nfkc", "caf\u00e9", "cafe\u0301"),
    ("combining_accent_uppercase_several", "caf\u00e9", "CAFE\u0301"),
    ("many_steps_together", "refund_status", " \u201cRefund  \uff33tatus\u201d. "),
    ("period_inside_quotes_not_stripped", "paris", " Paris.\u201d"),
    ("numbers_not_normalized", "4", "four"),
    ("superscript_two_nfkc", "x2", "x\u00b2"),
    ("both_equal_with_whitespace", "  same  ", "  same  "),
    ("multiline_answer_collapse", "line one line two", "line one\nline two"),
]

BASES = ["Paris", "refund status", "42", "caf\u00e9", "New York City", "yes", "ABC", "it's done",
         "\u6771\u4eac", "e = mc2", "na\u00efve approach", "O'Brien", ""]
FULLWIDTH = {chr(c): chr(c + 0xFEE0) for c in range(0x21, 0x7F)}


def perturb(rng, text):
    changes = rng.sample(["space_edges", "upper", "fullwidth", "double_space", "period", "underscore",
                          "quotes", "real_change", "exclaim", "tab"], rng.randint(1, 3))
    for change in changes:
        if change == "space_edges":
            text = rng.choice([" ", "\t", "\u00a0", "\n"]) + text + rng.choice(["", " ", "  "])
        elif change == "upper":
            text = text.upper() if rng.random() < 0.5 else text.title()
        elif change == "fullwidth":
            text = "".join(FULLWIDTH.get(ch, ch) for ch in text)
        elif change == "double_space":
            text = text.replace(" ", rng.choice(["  ", " \t", "\u00a0 "]))
        elif change == "period":
            text = text + "."
        elif change == "exclaim":
            text = text + rng.choice(["!", "!!"])
        elif change == "underscore":
            text = text.replace(" ", "_") if rng.random() < 0.5 else text.replace("_", " ")
        elif change == "quotes":
            left, right = rng.choice([("\"", "\""), ("'", "'"), ("\u201c", "\u201d"), ("\u2018", "\u2019")])
            text = left + text + right
        elif change == "tab":
            text = text.replace(" ", "\t")
        else:
            text = text + rng.choice(["x", " extra", "0"])
    return text


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    texts = BASES + [text for _, e, a in EDGE_CASES for text in (e, a)]
    inputs = []
    for _ in range(count):
        expected = rng.choice(texts)
        if rng.random() < 0.3:
            expected = perturb(rng, expected)
        actual = perturb(rng, expected) if rng.random() < 0.9 else rng.choice(texts)
        pair = [expected, actual] if rng.random() < 0.7 else [actual, expected]
        inputs.append((pair, {}))
    return inputs


def main():
    near_miss_steps = load_reference(FOLDER).near_miss_steps
    rng = random.Random(SEED)
    cases = list(EDGE_CASES)
    for i in range(30):
        expected = rng.choice(BASES)
        if rng.random() < 0.2:
            expected = perturb(rng, expected)
        actual = perturb(rng, expected)
        for _ in range(5):  # mostly real fails; an unchanged pair is kept only after 5 tries
            if actual != expected:
                break
            actual = perturb(rng, expected)
        cases.append((f"random_{i:02d}", expected, actual))

    write_hidden(FOLDER, [(name, [expected, actual]) for name, expected, actual in cases], near_miss_steps,
                 check=lambda value: type(value) is list and all(type(step) is str for step in value))


if __name__ == "__main__":
    main()
