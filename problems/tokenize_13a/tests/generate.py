"""Rebuild tests/hidden.json for tokenize_13a deterministically.

Run from anywhere: python problems/tokenize_13a/tests/generate.py
Expected values come from reference.py in the problem folder.
"""

import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 13013


EDGE_CASES = [
    ("empty_text", ""),
    ("only_whitespace", " \t \u00a0 \u3000 "),
    ("skipped_marker_removed", "first <skipped> second<skipped>third"),
    ("skipped_marker_rebuilt_is_not_removed_twice", "<skip<skipped>ped>"),
    ("hyphen_newline_joins", "refund-\nstatus and a-\nb"),
    ("space_hyphen_newline", "a -\nb"),
    ("newlines_become_spaces", "line one\nline two\n\nline three"),
    ("carriage_return_hyphen_not_joined", "refund-\r\nstatus"),
    ("digit_hyphen_forms", "2-3 a-3 -3 3- x--y 5-- 1-2-3"),
    ("dotted_version_and_acronym", "1.5.2 U.S.A. e.g., v2.0"),
    ("arabic_indic_digits_are_not_digits", "\u0663.\u0665 and \u0663,\u0665 vs 3.5 and 3,5"),
    ("fullwidth_digits_are_not_digits", "\uff13.\uff15 \uff12-\uff13"),
    ("entity_uppercase_kept", "&AMP; &Quot; &amp"),
    ("entity_chain_amp_lt", "&amp;lt; &amp;quot; &amp;amp;"),
    ("entity_gt_lt_spacing", "a&lt;b&gt;c"),
    ("apostrophes_kept", "don't 'quoted' rock'n'roll O'Brien's"),
    ("non_ascii_punctuation_kept", "wait\u2026 \u00abbonjour\u00bb \u2014dash\u2014 \u00bfQu\u00e9? \u201cok\u201d"),
    ("zero_width_space_inside_token", "a\u200bb c\u200d d"),
    ("nbsp_and_ideographic_space_split", "a\u00a0b\u3000c\u2009d"),
    ("info_separators_are_whitespace", "a\x1cb\x1dc\x1ed\x1ff"),
    ("nfc_and_nfd_unchanged", "caf\u00e9 cafe\u0301"),
    ("every_rule_a_character", "a{b|c}d~e[f\\g]h^i_j`k!l\"m#n$o%p&q(r)s*t+u:v;w<x=y>z?A@B/C"),
    ("comma_and_period_runs", "a,,b ..5 ,,1 1.. 1,,2 x.,y"),
    ("period_between_digit_and_letter", "3.a a.3 3,a a,3"),
    ("trailing_period_after_digit", "It costs 42."),
    ("leading_comma_before_digit", ",5 and .5"),
    ("emoji_and_cjk", "\U0001f44d\u6771\u4eac(\u5927)\U0001f469\u200d\U0001f4bb!"),
    ("url_like", "see https://example.org/a_b?x=1&y=2#top."),
    ("tabs_and_mixed_whitespace", "\ta\t\tb \n c\r\nd"),
]

PIECES = [
    "the", "The", "refund", "status", "-", "_", "'", ".", ",", "!", "?", ";", ":", "(", ")",
    "[", "]", "{", "}", "\"", "$", "%", "&", "#", "@", "/", "\\", "|", "~", "^", "`", "<", ">",
    "=", "+", "*", "0", "1", "2", "3", "9", "42", "3.14", "1,000", " ", " ", " ", "  ", "\t",
    "\n", "-\n", "<skipped>", "&amp;", "&quot;", "&lt;", "&gt;", "&amp;lt;", "caf\u00e9",
    "cafe\u0301", "na\u00efve", "\u00df", "\u0130", "\u03a9", "\u6771\u4eac", "\U0001f44d",
    "\u00a0", "\u2026", "\u00ab", "\u00bb", "\u2014", "\u201c", "\u201d", "\u0663", "\u200b",
    "\u3000", "x", "y", "z", "A", "e-mail", "v2", "don't",
]


def random_text(rng, length):
    return "".join(rng.choice(PIECES) for _ in range(length))


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    inputs = []
    for _ in range(count):
        if rng.random() < 0.7:
            text = random_text(rng, rng.randint(0, 40))
        else:
            text = "".join(rng.choice("01a .,-\n") for _ in range(rng.randint(1, 30)))
        inputs.append(([text], {}))
    return inputs


def main():
    tokenize_13a = load_reference(FOLDER).tokenize_13a
    rng = random.Random(SEED)
    cases = list(EDGE_CASES)
    for i in range(26):
        cases.append((f"random_mix_{i:02d}", random_text(rng, rng.randint(1, 40))))
    # Dense runs of digits, periods, commas and hyphens, where the substitution order matters.
    for i in range(8):
        text = "".join(rng.choice("01a .,-") for _ in range(rng.randint(5, 30)))
        cases.append((f"random_digits_and_separators_{i:02d}", text))
    cases.append(("long_text", random_text(rng, 3000)))

    write_hidden(FOLDER, [(name, [text]) for name, text in cases], tokenize_13a,
                 check=lambda value: type(value) is list and all(type(token) is str for token in value))


if __name__ == "__main__":
    main()
