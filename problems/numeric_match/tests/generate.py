"""Rebuild tests/hidden.json for numeric_match.

Run from anywhere: python problems/numeric_match/tests/generate.py
Expected values come from reference.py; the random cases use a fixed seed, so the output is stable.
"""

import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 777


HAND = [
    ("equal_plain", ["7", "7"], {}),
    ("equal_with_decimals", ["7", "7.000"], {}),
    ("grouped_equals_plain", ["1,234", "1234"], {}),
    ("signs_equal", ["+5", "5"], {}),
    ("negative_vs_positive", ["-5", "5"], {"abs_tol": 9.0}),
    ("negative_vs_positive_tight", ["-5", "5"], {"abs_tol": 1.0}),
    ("both_empty", ["", ""], {}),
    ("expected_empty", ["", "3"], {}),
    ("actual_empty", ["3", ""], {}),
    ("expected_whitespace_only", ["   ", "3"], {"mode": "first"}),
    ("not_judged_even_if_close", ["n/a", "0"], {"abs_tol": 100.0}),
    ("not_judged_first_mode", ["none", "1"], {"mode": "first"}),
    ("actual_version_only", ["2", "v2"], {"mode": "first"}),
    ("strict_boundary_abs", ["10", "12.5"], {"abs_tol": 2.5}),
    ("just_over_boundary", ["10", "12.5"], {"abs_tol": 2.0}),
    ("boundary_relative", ["200", "250"], {"rel_tol": 0.25}),
    ("boundary_relative_below", ["200", "150"], {"rel_tol": 0.25}),
    ("relative_not_to_actual", ["1000", "1100"], {"rel_tol": 0.095}),
    ("relative_expected_larger", ["110", "100"], {"rel_tol": 0.095}),
    ("negative_expected_relative", ["-100", "-96"], {"rel_tol": 0.05}),
    ("negative_expected_relative_fail", ["-100", "-94"], {"rel_tol": 0.05}),
    ("relative_small_expected", ["50", "54.8"], {"rel_tol": 0.09}),
    ("negative_expected_mixed", ["-2000", "-2030"], {"abs_tol": 0.5, "rel_tol": 0.02}),
    ("zero_expected_rel_only", ["0", "0.001"], {"rel_tol": 0.5}),
    ("zero_expected_abs", ["0", "0.001"], {"abs_tol": 0.01}),
    ("zero_expected_exact", ["0", "0.0"], {}),
    ("negative_zero", ["-0", "0"], {}),
    ("abs_beats_rel", ["2", "2.4"], {"abs_tol": 0.5, "rel_tol": 0.01}),
    ("rel_beats_abs", ["2000", "2030"], {"abs_tol": 0.5, "rel_tol": 0.02}),
    ("percent_first", ["50", "Accuracy was 50%"], {"mode": "first"}),
    ("percent_whole_actual", ["50", "50%"], {}),
    ("exponent_expected_not_judged", ["1e3", "1000"], {}),
    ("exponent_actual_fails", ["1000", "1e3"], {}),
    ("underscore_digits_not_judged", ["1_000", "1000"], {}),
    ("inf_not_judged", ["inf", "1"], {}),
    ("nan_actual_fails", ["1", "nan"], {}),
    ("first_vs_last", ["Answer: 12 (not 13)", "12, then 13"], {"mode": "first"}),
    ("last_vs_last", ["Answer: 12 (not 13)", "12, then 13"], {"mode": "last"}),
    ("dash_range_last_sign_ignored", ["3", "pages 5-3"], {"mode": "last"}),
    ("space_minus_sign", ["-3", "delta -3"], {"mode": "last"}),
    ("bad_grouping_actual", ["123", "1,23"], {"mode": "first"}),
    ("bad_grouping_expected", ["1,23", "123"], {"mode": "first"}),
    ("arabic_indic_actual", ["42", "\u0664\u0662"], {"mode": "first"}),
    ("fullwidth_expected", ["\uff14\uff12", "42"], {}),
    ("huge_tolerance", ["1", "1000000"], {"abs_tol": 1e9}),
    ("tiny_tolerance", ["0.1", "0.1000001"], {"abs_tol": 1e-9}),
    ("mode_bad_case", ["1", "1"], {"mode": "First"}),
    ("empty_expected_first_mode", ["", "5"], {"mode": "first"}),
    ("empty_actual_last_mode", ["5", ""], {"mode": "last"}),
    ("leading_zero_first_mode", ["0.5", "0.50"], {"mode": "first"}),
    ("leading_nine_last_mode", ["9", "about 9.0"], {"mode": "last"}),
    ("letter_then_minus_first", ["x-5", "5"], {"mode": "first"}),
    ("negative_whole_abs_tol", ["-3", "-3.5"], {"abs_tol": 0.6}),
    ("first_mode_reads_first", ["12", "12 then 13"], {"mode": "first"}),
]

UNITS = ["", "", " kg", "%", " USD", " points"]


def render(rng, value):
    text = f"{value:,.{rng.randrange(0, 4)}f}" if rng.random() < 0.5 else repr(value)
    if "e" in text:
        text = f"{value:.2f}"
    wrap = rng.randrange(4)
    if wrap == 0:
        return text
    if wrap == 1:
        return f"The answer is {text}{rng.choice(UNITS)}."
    if wrap == 2:
        return f"  {text}\n"
    return f"({text}) or maybe {rng.randrange(100)}"


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    texts = [text for _, args, _ in HAND for text in args]

    def short_text():  # a number near the start, after a sign and whatever precedes it
        head = rng.choice(["", "", " ", "x", "a", "(", "((", "x ", " (", "ab", "_", ".", "\t", "xy"])
        number = rng.choice(["0", "9", "0.5", "90", "1,000", "12", str(rng.randrange(1000))])
        return head + rng.choice(["-", "+", "", ""]) + number + rng.choice(["", " ", " 7", "-3", " and -9"])

    inputs = []
    for _ in range(count):
        e = round(rng.uniform(-2000, 2000), rng.randrange(0, 4))
        if rng.random() < 0.2:
            e = float(rng.randrange(-10, 10))
        a = e + rng.choice([0.0, 0.0, rng.uniform(-5, 5), rng.uniform(-100, 100), float(rng.randrange(-3, 4))])
        args = [render(rng, e), render(rng, round(a, 3))]
        roll = rng.random()
        if roll < 0.2:
            args[rng.randrange(2)] = rng.choice(texts)
        elif roll < 0.5:
            args = [short_text() if rng.random() < 0.7 else arg for arg in args]
        kwargs = {}
        if rng.random() < 0.9:
            kwargs["mode"] = rng.choice(["whole", "first", "last"]) if rng.random() < 0.97 else "First"
        if rng.random() < 0.6:
            kwargs["abs_tol"] = rng.choice([0.0, 0.5, 1.0, 2.5, 10.0, 100.0])
        if rng.random() < 0.6:
            kwargs["rel_tol"] = rng.choice([0.0, 0.001, 0.01, 0.05, 0.1, 0.5])
        inputs.append((args, kwargs))
    return inputs


def main():
    reference = load_reference(FOLDER)
    rng = random.Random(SEED)
    cases = list(HAND)
    i = 0
    while i < 30:
        e = round(rng.uniform(-2000, 2000), rng.randrange(0, 4))
        a = e + rng.choice([0.0, 0.0, rng.uniform(-5, 5), rng.uniform(-100, 100)])
        kwargs = {"mode": rng.choice(["whole", "first", "last"])}
        if rng.random() < 0.6:
            kwargs["abs_tol"] = rng.choice([0.0, 0.5, 1.0, 2.5, 10.0])
        if rng.random() < 0.6:
            kwargs["rel_tol"] = rng.choice([0.0, 0.001, 0.01, 0.05, 0.1])
        args = [render(rng, e), render(rng, round(a, 3))]
        want = reference._read(args[0], kwargs["mode"])
        got = reference._read(args[1], kwargs["mode"])
        if want is not None and got is not None:
            gap = abs(got - want)
            allowance = max(kwargs.get("abs_tol", 0.0), kwargs.get("rel_tol", 0.0) * abs(want))
            if gap != allowance and abs(gap - allowance) < 1e-6:
                continue  # too close to the boundary to be a fair test of rounding
        cases.append((f"random_{i:02d}", args, kwargs))
        i += 1

    write_hidden(FOLDER, cases, reference.numeric_match, raises=ValueError)


if __name__ == "__main__":
    main()
