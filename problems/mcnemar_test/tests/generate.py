"""Rebuild tests/hidden.json for mcnemar_test deterministically.

Run from anywhere: python problems/mcnemar_test/tests/generate.py
Expected values come from reference.py in the problem folder.
"""

import math
import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 2334

EDGE_CASES = [
    ("first_negative_raises", [-1, 0]),
    ("second_negative_raises", [5, -2]),
    ("second_minus_one_raises", [3, -1]),
    ("both_negative_raises", [-3, -3]),
    ("one_discordant_a", [1, 0]),
    ("one_discordant_b", [0, 1]),
    ("one_each", [1, 1]),
    ("zero_and_two", [0, 2]),
    ("zero_and_five", [5, 0]),
    ("one_and_two", [1, 2]),
    ("two_and_seven", [7, 2]),
    ("off_by_one_split", [10, 11]),
    ("equal_large", [500, 500]),
    ("near_equal_large", [500, 501]),
    ("classic_significant", [10, 25]),
    ("borderline", [8, 20]),
    ("large_balanced", [4000, 4100]),
    ("large_lopsided", [1200, 1500]),
    ("large_one_side_zero", [0, 1500]),
    ("largest_counts", [9000, 9999]),
]


def _counts(rng):
    scale = rng.choice([3, 10, 30, 100, 1000, 5000])
    a = rng.randint(0, scale)
    b = a + rng.randint(-scale // 3, scale // 3) if rng.random() < 0.6 else rng.randint(0, scale)
    return a, max(b, 0)


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    inputs = []
    for _ in range(count):
        a, b = _counts(rng)
        roll = rng.random()
        if roll < 0.05:
            a = -rng.randint(1, 3)
        elif roll < 0.1:
            b = -rng.randint(1, 3)
        elif roll < 0.2:
            a, b = rng.randint(0, 3), rng.randint(0, 3)
        inputs.append(([a, b], {}))
    return inputs


def main():
    mcnemar_test = load_reference(FOLDER).mcnemar_test
    rng = random.Random(SEED)
    cases = list(EDGE_CASES)
    for i in range(40):
        cases.append((f"random_{i:02d}", list(_counts(rng))))
    write_hidden(FOLDER, cases, mcnemar_test, raises=ValueError,
                 check=lambda v: type(v) is float and math.isfinite(v) and 0 <= v <= 1)


if __name__ == "__main__":
    main()
