"""Rebuild tests/hidden.json for char_error_rate deterministically.

Run from anywhere: python problems/char_error_rate/tests/generate.py
Expected values come from reference.py in the problem folder.
"""

import math
import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 2312
WORDS = ["the", " ", "\t", "cat", "sat", "on", "mat", "a", "dog", "ran", "Cat", "mat.", "caf\u00e9", "cafe\u0301", "42"]

EDGE_CASES = [
    ("empty_reference_empty_hypothesis_raises", "", ""),
    ("whitespace_reference_counts", " \t\n ", ""),
    ("empty_hypothesis", "abc", ""),
    ("identical", "the cat sat", "the cat sat"),
    ("one_substitution", "abcd", "abxd"),
    ("all_substituted", "abc", "xyz"),
    ("insertions_exceed_one", "a", "aaaa"),
    ("shift_by_one", "abcdefgh", "zabcdefgh"),
    ("dropped_first", "abcdef", "bcdef"),
    ("swapped_pair", "ab", "ba"),
    ("reversed", "abcd", "dcba"),
    ("case_differs", "Cat", "cat"),
    ("trailing_space", "cat ", "cat"),
    ("double_space", "a  b", "a b"),
    ("tab_for_space", "a b", "a\tb"),
    ("nfd_against_nfc", "cafe\u0301", "caf\u00e9"),
    ("no_break_space", "a\u00a0b", "a b"),
    ("emoji_code_points", "\U0001f600ok", "ok"),
    ("flag_is_two_code_points", "\U0001f1eb\U0001f1f7", "\U0001f1eb"),
    ("spaces_removed", "the cat sat on", "thecatsaton"),
    ("long_against_short", "abcdefghij", "c"),
]


def _sentence(rng, length):
    return " ".join(rng.choice(WORDS) for _ in range(length))


def _edited(rng, words):
    out = list(words)
    for _ in range(rng.randint(0, 4)):
        kind = rng.randrange(3)
        if kind == 0 and out:
            out[rng.randrange(len(out))] = rng.choice(WORDS)
        elif kind == 1 and out:
            del out[rng.randrange(len(out))]
        else:
            out.insert(rng.randint(0, len(out)), rng.choice(WORDS))
    return out


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    inputs = []
    for _ in range(count):
        reference = _sentence(rng, rng.randint(0, 9))
        if rng.random() < 0.6:
            hypothesis = " ".join(_edited(rng, reference.split()))
        else:
            hypothesis = _sentence(rng, rng.randint(0, 9))
        space = rng.choice([" ", "  ", "\t", "\n"])
        inputs.append(([reference.replace(" ", space), hypothesis], {}))
    return inputs


def main():
    char_error_rate = load_reference(FOLDER).char_error_rate
    rng = random.Random(SEED)
    cases = list(EDGE_CASES)
    for i in range(40):
        words = _sentence(rng, rng.randint(1, 14)).split()
        hypothesis = _edited(rng, words) if i % 4 else _sentence(rng, rng.randint(0, 14)).split()
        cases.append((f"random_{i:02d}", " ".join(words), " ".join(hypothesis)))
    write_hidden(FOLDER, [(name, [r, h]) for name, r, h in cases], char_error_rate, raises=ValueError,
                 check=lambda value: type(value) is float and math.isfinite(value) and value >= 0)


if __name__ == "__main__":
    main()
