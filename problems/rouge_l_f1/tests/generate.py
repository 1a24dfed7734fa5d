"""Rebuild tests/hidden.json for rouge_l_f1 deterministically.

Run from anywhere: python problems/rouge_l_f1/tests/generate.py
Expected values come from reference.py in the problem folder.
"""

import math
import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 4242


EDGE_CASES = [
    ("both_empty", "", ""),
    ("empty_expected", "the cat", ""),
    ("whitespace_only_output", " \t\n\u00a0", "the cat"),
    ("punctuation_only_both", "...!", "?"),
    ("emoji_only", "\U0001f600 \U0001f44d", "\U0001f600"),
    ("no_common_token", "red apple", "green pear"),
    ("identical", "a b c d", "a b c d"),
    ("single_token_match", "Hello", "hello!"),
    ("reversed_order", "one two three four five", "five four three two one"),
    ("gaps_allowed", "a x b y c z", "a b c"),
    ("repeated_tokens", "the the the", "the cat the"),
    ("output_longer", "the cat sat on the mat today in the sun", "the cat sat"),
    ("expected_longer", "cat", "the big fat cat sat on the mat"),
    ("underscore_splits", "snake_case", "snake case"),
    ("apostrophe_splits", "don't", "don t"),
    ("decimal_splits", "3.14", "3 14"),
    ("superscript_number_kept", "x\u00b2 + y\u00b2", "x\u00b2 y\u00b2"),
    ("fraction_number_kept", "\u00bd cup", "\u00bd CUP"),
    ("roman_numeral_letter_number", "Louis \u216b", "louis \u216b"),
    ("uppercase_nonascii", "NA\u00cfVE CAF\u00c9", "na\u00efve caf\u00e9"),
    ("nfc_vs_nfd", "caf\u00e9", "cafe\u0301"),
    ("dotted_capital_i_alone", "\u0130", "i"),
    ("dotted_capital_i_split_matches", "\u0130stanbul", "i stanbul"),
    ("sharp_s_lower_unchanged", "STRA\u00dfE", "stra\u00dfe"),
    ("greek_final_sigma", "\u039f\u0394\u039f\u03a3", "\u03bf\u03b4\u03bf\u03c3"),
    ("cjk_run_is_one_token", "\u6771\u4eac\u30bf\u30ef\u30fc", "\u6771\u4eac \u30bf\u30ef\u30fc"),
    ("cjk_punctuation_splits", "\u6771\u4eac\u3001\u30bf\u30ef\u30fc\u3002", "\u6771\u4eac \u30bf\u30ef\u30fc"),
    ("arabic_digits", "\u0661\u0662\u0663 abc", "\u0661\u0662\u0663"),
    ("zero_width_space_splits", "new\u200byork", "new york"),
    ("no_break_space_splits", "new\u00a0york", "new york"),
    ("em_dash_splits", "paris\u2014france", "paris france"),
    ("emoji_between_words", "good\U0001f44dwork", "good work"),
    ("fullwidth_letters", "\uff21\uff22\uff23", "\uff41\uff42\uff43"),
    ("cyrillic", "\u041f\u0440\u0438\u0432\u0435\u0442, \u043c\u0438\u0440!", "\u043f\u0440\u0438\u0432\u0435\u0442 \u043c\u0438\u0440"),
]

WORDS = ["the", "The", "cat", "CAT", "sat", "on", "mat", "dog", "ran", "fast", "and", "a",
         "caf\u00e9", "cafe\u0301", "na\u00efve", "\u6771\u4eac", "\u043c\u0438\u0440", "3.14",
         "e-mail", "snake_case", "don't", "x\u00b2", "\u0130zmir", "42", "Stra\u00dfe",
         "\u00c9t\u00e9"]
SEPARATORS = [" ", " ", " ", "  ", ", ", ". ", "! ", "\n", "\t", " - ", "\u2014", "_",
              "\U0001f600", "\u00a0", "\u200b", "?"]


def random_text(rng, n):
    parts = []
    for i in range(n):
        if i:
            parts.append(rng.choice(SEPARATORS))
        parts.append(rng.choice(WORDS))
    return "".join(parts)


def mutate(rng, text):
    """An edited copy: words dropped, inserted, swapped and re-cased."""
    words = text.split(" ")
    out = []
    for w in words:
        roll = rng.random()
        if roll < 0.15:
            continue
        if roll < 0.25:
            out.append(rng.choice(WORDS))
        out.append(w.upper() if roll > 0.9 else w)
    if len(out) > 2 and rng.random() < 0.5:
        i, j = rng.randrange(len(out)), rng.randrange(len(out))
        out[i], out[j] = out[j], out[i]
    return " ".join(out)


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    inputs = []
    for _ in range(count):
        output = random_text(rng, rng.choice([0, 1, 2, 3, 5, 8, 15]))
        if rng.random() < 0.6:
            expected = mutate(rng, output)
        else:
            expected = random_text(rng, rng.choice([0, 1, 2, 4, 10]))
        pair = [output, expected] if rng.random() < 0.5 else [expected, output]
        inputs.append((pair, {}))
    return inputs


def main():
    rouge_l_f1 = load_reference(FOLDER).rouge_l_f1
    rng = random.Random(SEED)
    cases = list(EDGE_CASES)
    for i in range(24):
        n = rng.choice([0, 1, 3, 8, 15, 30])
        output = random_text(rng, n)
        if rng.random() < 0.6:
            expected = mutate(rng, output)
        else:
            expected = random_text(rng, rng.choice([0, 1, 4, 10, 25]))
        if rng.random() < 0.5:
            output, expected = expected, output
        cases.append((f"random_{i:02d}", output, expected))
    for i, (m, n) in enumerate([(300, 280), (600, 550), (800, 50)]):
        output = random_text(rng, m)
        expected = mutate(rng, output) if n > 100 else random_text(rng, n)
        cases.append((f"long_{i}", output, expected))

    write_hidden(FOLDER, [(name, [output, expected]) for name, output, expected in cases], rouge_l_f1,
                 check=lambda value: type(value) is float and math.isfinite(value))


if __name__ == "__main__":
    main()
