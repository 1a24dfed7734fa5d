"""Rebuild tests/hidden.json for word_error_rate deterministically.

Run from anywhere: python problems/word_error_rate/tests/generate.py
Expected values come from reference.py in the problem folder.
"""

import math
import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 2311
WORDS = ["the", "cat", "sat", "on", "mat", "a", "dog", "ran", "Cat", "mat.", "caf\u00e9", "cafe\u0301", "42"]

EDGE_CASES = [
    ("empty_reference_empty_hypothesis_raises", "", "x"),
    ("whitespace_reference_raises", " \t\n ", ""),
    ("both_empty_raises", "", ""),
    ("empty_hypothesis_three", "the cat sat", ""),
    ("whitespace_hypothesis", "the cat", "  \t "),
    ("identical", "the cat sat on the mat", "the cat sat on the mat"),
    ("one_substitution_middle", "a b c d", "a x c d"),
    ("all_substituted", "a b c", "x y z"),
    ("insertions_exceed_one", "a", "a a a"),
    ("only_insertions", "a", "b c d e"),
    ("shift_by_one_word", "one two three four five six seven eight", "zero one two three four five six seven eight"),
    ("dropped_first_word", "one two three four five six", "two three four five six"),
    ("swapped_pair", "a b", "b a"),
    ("reversed", "a b c d", "d c b a"),
    ("case_differs", "The Cat", "the cat"),
    ("punctuation_differs", "the mat.", "the mat"),
    ("double_spaces_and_tabs", "the  cat\tsat", "the cat  sat"),
    ("newlines_separate", "the\ncat", "the cat"),
    ("combining_accent_differs", "caf\u00e9 ouvert", "cafe\u0301 ouvert"),
    ("no_break_space_inside_word", "a\u00a0b", "a b"),
    ("repeated_words", "the the the", "the the"),
    ("long_against_short", "a b c d e f g h i j", "c"),
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
    word_error_rate = load_reference(FOLDER).word_error_rate
    rng = random.Random(SEED)
    cases = list(EDGE_CASES)
    for i in range(40):
        words = _sentence(rng, rng.randint(1, 14)).split()
        hypothesis = _edited(rng, words) if i % 4 else _sentence(rng, rng.randint(0, 14)).split()
        cases.append((f"random_{i:02d}", " ".join(words), " ".join(hypothesis)))
    write_hidden(FOLDER, [(name, [r, h]) for name, r, h in cases], word_error_rate, raises=ValueError,
                 check=lambda value: type(value) is float and math.isfinite(value) and value >= 0)


if __name__ == "__main__":
    main()
