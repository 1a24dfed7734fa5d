"""Rebuild tests/hidden.json for rouge_n deterministically.

Run from anywhere: python problems/rouge_n/tests/generate.py
Expected values come from reference.py in the problem folder.
"""

import math
import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 2315
WORDS = ["the", "The", "cat", "sat", "on", "mat", "a", "dog", "caf\u00e9", "x\u00b2", "42", "don't", "e-mail"]
GLUE = [" ", " ", ", ", "! ", "\n", " - ", "_"]

EDGE_CASES = [
    ("negative_n_raises", "a b", "a b", -1),
    ("both_empty", "", "", 1),
    ("empty_output", "", "the cat", 1),
    ("empty_expected", "the cat", "", 1),
    ("punctuation_only", "?!", "...", 1),
    ("identical_trigrams", "one two three four", "one two three four", 3),
    ("same_words_other_order_bigrams", "a b c d", "d c b a", 2),
    ("same_words_other_order_unigrams", "a b c d", "d c b a", 1),
    ("n_longer_than_both", "a b", "a b", 3),
    ("n_fits_one_side", "a b c", "a b", 3),
    ("repeated_bigram_clipped", "a b a b a b", "a b", 2),
    ("repeated_on_expected_side", "a b", "a b a b a b", 2),
    ("case_folds", "THE CAT", "the cat", 2),
    ("underscore_splits", "snake_case", "snake case", 2),
    ("superscript_is_a_number", "x\u00b2 y", "x\u00b2 y", 2),
    ("accented_letters", "caf\u00e9 noir", "CAF\u00c9 noir", 2),
    ("combining_mark_splits", "cafe\u0301 noir", "cafe noir", 1),
    ("four_grams", "a b c d e f", "a b c d x f", 4),
    ("disjoint", "a b c", "x y z", 1),
]


def _text(rng, length):
    words = [rng.choice(WORDS) for _ in range(length)]
    return "".join(w + rng.choice(GLUE) for w in words).strip()


def _pair(rng):
    output = _text(rng, rng.choice([0, 1, 2, rng.randint(1, 12), rng.randint(5, 40)]))
    if rng.random() < 0.5:
        words = output.split()
        expected = " ".join(w for w in words if rng.random() < 0.8) + " " + _text(rng, rng.randint(0, 4))
    else:
        expected = _text(rng, rng.choice([0, 1, 3, rng.randint(1, 12), rng.randint(5, 40)]))
    return output, expected.strip(), rng.choice([1, 1, 2, 2, 3, 4])


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    inputs = []
    for _ in range(count):
        output, expected, n = _pair(rng)
        if rng.random() < 0.04:
            n = rng.choice([0, -1])
        inputs.append(([output, expected, n], {}))
    return inputs


def main():
    rouge_n = load_reference(FOLDER).rouge_n
    rng = random.Random(SEED)
    cases = list(EDGE_CASES)
    for i in range(40):
        output, expected, n = _pair(rng)
        cases.append((f"random_{i:02d}", output, expected, n))
    write_hidden(FOLDER, [(name, [o, e, n]) for name, o, e, n in cases], rouge_n, raises=ValueError,
                 check=lambda value: type(value) is float and math.isfinite(value) and 0 <= value <= 1)


if __name__ == "__main__":
    main()
