"""Rebuild tests/hidden.json for brevity_penalty deterministically.

Run from anywhere: python problems/brevity_penalty/tests/generate.py
Expected values come from reference.py in the problem folder.
"""

import math
import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 1602


EDGE_CASES = [
    ("zero_and_zero", 0, 0),
    ("zero_candidate_one_reference", 0, 1),
    ("zero_candidate_large_reference", 0, 1000),
    ("empty_reference", 5, 0),
    ("one_and_zero", 1, 0),
    ("one_and_one", 1, 1),
    ("one_against_two", 1, 2),
    ("one_against_three", 1, 3),
    ("one_against_fifty", 1, 50),
    ("one_against_thousand_underflows", 1, 1000),
    ("two_against_three", 2, 3),
    ("two_against_five", 2, 5),
    ("three_against_seven", 3, 7),
    ("one_shorter_large", 999, 1000),
    ("large_equal", 10**6, 10**6),
    ("large_one_shorter", 10**6, 10**6 + 1),
    ("large_half", 500000, 1000000),
    ("huge_lengths", 123456789, 987654321),
    ("just_longer", 11, 10),
    ("much_longer", 1000, 3),
    ("integer_ratio_two", 5, 10),
    ("ratio_just_above_one", 9, 10),
]


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    inputs = []
    for _ in range(count):
        scale = rng.choice([3, 10, 60, 1000, 10**6])
        c = rng.randint(0, scale)
        r = rng.choice([rng.randint(0, scale), c, c + 1, max(0, c - 1), c + rng.randint(1, 5), 2 * c])
        inputs.append(([c, r], {}))
    return inputs


def main():
    brevity_penalty = load_reference(FOLDER).brevity_penalty
    rng = random.Random(SEED)
    cases = list(EDGE_CASES)
    for i in range(26):
        kind = i % 4
        if kind == 0:
            c = rng.randint(1, 60)
            r = rng.randint(c + 1, c + 60)
        elif kind == 1:
            r = rng.randint(0, 60)
            c = rng.randint(max(r, 1), r + 30)
        elif kind == 2:
            c = rng.randint(1, 10**5)
            r = c + rng.randint(1, 10**5)
        else:
            r = rng.randint(2, 200)
            c = rng.randint(1, r - 1)
        cases.append((f"random_{i:02d}", c, r))

    write_hidden(FOLDER, [(name, [c, r]) for name, c, r in cases], brevity_penalty,
                 check=lambda value: type(value) is float and math.isfinite(value))


if __name__ == "__main__":
    main()
