"""Rebuild tests/hidden.json for extract_number.

Run from anywhere: python problems/extract_number/tests/generate.py
Expected values come from reference.py; the random cases use a fixed seed, so the output is stable.
"""

import math
import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 4242


HAND = [
    ("empty_first", ["", "first"]),
    ("empty_whole", ["", "whole"]),
    ("no_digits_last", ["no numbers here.", "last"]),
    ("whitespace_only_whole", ["  \n ", "whole"]),
    ("version_only_last", ["v2.0 scored 0.83", "last"]),
    ("refund_first", ["The refund is $42.00.", "first"]),
    ("refund_whole", ["The refund is $42.00.", "whole"]),
    ("percent_last_with_fraction", ["up from 12.5% to 50%", "first"]),
    ("paren_sign_whole_rejected", ["(-5)", "whole"]),
    ("space_sign", ["x -5", "first"]),
    ("letter_then_sign", ["a-5", "first"]),
    ("double_minus", ["--5", "first"]),
    ("double_minus_whole", ["--5", "whole"]),
    ("unicode_minus_not_sign", ["\u22125", "first"]),
    ("unicode_minus_whole", ["\u22125", "whole"]),
    ("plus_sign_start", ["+7 points", "first"]),
    ("plus_whole", ["+7", "whole"]),
    ("paren_plus_then_space_minus", ["(+3) then -4", "last"]),
    ("sign_after_tab", ["delta:\t-2.5", "last"]),
    ("sign_after_newline", ["result\n-12", "first"]),
    ("minus_after_colon_ignored", ["delta:-2.5", "first"]),
    ("dash_range_last", ["pages 10-20", "last"]),
    ("date_first", ["2024-05-01", "first"]),
    ("date_last", ["2024-05-01", "last"]),
    ("pi_digits_nothing", ["3.14.15", "first"]),
    ("bad_grouping_nothing", ["12,3456", "last"]),
    ("bad_grouping_then_good", ["12,3456 or 78", "first"]),
    ("trailing_group_comma", ["1,000,00", "first"]),
    ("comma_list", ["1, 2, 3", "last"]),
    ("comma_list_tight", ["1,2,3", "first"]),
    ("group_then_comma_space", ["1,234, then", "first"]),
    ("millions_period_end", ["total: 1,000,000.", "last"]),
    ("whole_grouped", ["1,234,567", "whole"]),
    ("whole_bad_group", ["1,23", "whole"]),
    ("whole_four_digit_group", ["1,2345", "whole"]),
    ("whole_trailing_period", ["5.", "whole"]),
    ("whole_leading_period", [".5", "whole"]),
    ("leading_period_first", [".5", "first"]),
    ("trailing_period_first", ["5.", "first"]),
    ("whole_leading_zeros", ["007", "whole"]),
    ("whole_negative_zero", ["-0", "whole"]),
    ("whole_exponent_rejected", ["1e5", "whole"]),
    ("exponent_first", ["1e5", "first"]),
    ("exponent_last", ["1e5", "last"]),
    ("whole_underscore_digits", ["1_000", "whole"]),
    ("whole_inf_word", ["inf", "whole"]),
    ("whole_nan_word", [" nan ", "whole"]),
    ("arabic_indic_digits", ["\u0664\u0662", "first"]),
    ("arabic_indic_whole", ["\u0664\u0662", "whole"]),
    ("fullwidth_digits", ["\uff14\uff12", "last"]),
    ("fullwidth_digits_whole", ["\uff14\uff12", "whole"]),
    ("after_cjk_letter", ["合计42元", "first"]),
    ("after_accented_letter", ["é5 and 6", "first"]),
    ("ordinal_suffix", ["the 3rd try", "first"]),
    ("unit_suffix", ["10kg", "last"]),
    ("underscore_prefix", ["id_42 is 7", "first"]),
    ("comma_prefix", ["a,42", "first"]),
    ("period_prefix", ["value.5 or 2", "first"]),
    ("euro_format_nothing", ["1.234,5", "first"]),
    ("hash_prefix", ["#12", "first"]),
    ("currency_symbol_prefix", ["€3.50", "whole"]),
    ("many_numbers_last", ["1 2 3 4 5 6 7 8 9 10", "last"]),
    ("big_but_finite", ["123,456,789,012,345,678", "first"]),
    ("long_decimal", ["0.1234567890123", "whole"]),
    ("uppercase_mode", ["42", "WHOLE"]),
    ("empty_mode", ["42", ""]),
    ("trailing_minus_not_a_sign", ["5 -", "first"]),
    ("leading_minus_text_ends_in_letter", ["-7 degrees", "first"]),
]

WORDS = ["score", "v", "id_", "x", "is", "the", "total:", "café", "合计", "€", "$", "(", ")", "%",
         "-", "+", ".", ",", ":", "and", "kg", "rd", "\u00a0", "\n", "\u2212", "'", "/"]


def numeral(rng):
    kind = rng.randrange(6)
    head = str(rng.randrange(0, 1000 if kind else 10**6))
    if kind == 1:
        head += "".join("," + f"{rng.randrange(1000):03d}" for _ in range(rng.randrange(1, 3)))
    if kind == 2:
        head += "," + str(rng.randrange(100))
    if kind in (3, 4):
        head += "." + str(rng.randrange(10**rng.randrange(1, 5)))
    if kind == 5:
        head += rng.choice([".", ",", ".5.1", ",1234"])
    return head


def random_text(rng):
    parts = []
    for _ in range(rng.randrange(1, 7)):
        if rng.random() < 0.45:
            parts.append(numeral(rng))
        else:
            parts.append(rng.choice(WORDS))
        parts.append(rng.choice(["", " ", " ", " ", "  ", "\t"]))
    return "".join(parts)


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    inputs = []
    for _ in range(count):
        roll = rng.random()
        if roll < 0.25:
            text = rng.choice(["", " ", "+", "-", "(", "x"]) + numeral(rng) + rng.choice(["", " ", "\n", "%", "-"])
        elif roll < 0.35:
            text = rng.choice(HAND)[1][0]
        else:
            text = random_text(rng)
        mode = rng.choice(["whole", "first", "last"]) if rng.random() < 0.98 else rng.choice(["WHOLE", ""])
        inputs.append(([text, mode], {}))
    return inputs


def main():
    reference = load_reference(FOLDER).extract_number
    rng = random.Random(SEED)
    cases = list(HAND)
    for i in range(36):
        if i % 6 == 0:
            text = rng.choice(["", " ", "+", "-"]) + numeral(rng) + rng.choice(["", " ", "\n"])
        else:
            text = random_text(rng)
        cases.append((f"random_{i:02d}", [text, rng.choice(["whole", "first", "last"])]))

    write_hidden(FOLDER, cases, reference, raises=ValueError,
                 check=lambda value: value is None or math.isfinite(value))


if __name__ == "__main__":
    main()
