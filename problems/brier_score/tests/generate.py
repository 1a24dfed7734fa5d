"""Rebuild tests/hidden.json for brier_score deterministically.

Run from anywhere: python problems/brier_score/tests/generate.py
Expected values come from reference.py in the problem folder.
"""

import math
import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 2321

EDGE_CASES = [
    ("lengths_differ_raises", [1, 0], [0.5]),
    ("outcome_two_raises", [2], [0.5]),
    ("outcome_negative_raises", [1, -1], [0.5, 0.5]),
    ("probability_negative_raises", [0, 1], [-0.0001, 0.5]),
    ("probability_far_above_raises", [1], [2.0]),
    ("out_of_range_after_valid_raises", [1, 1, 1], [0.2, 0.4, 1.5]),
    ("exact_zero_and_one", [0, 1, 1, 0], [0.0, 1.0, 0.0, 1.0]),
    ("all_half", [1, 0, 1, 0, 1], [0.5] * 5),
    ("all_negative_outcomes", [0, 0, 0], [0.1, 0.2, 0.3]),
    ("no_positive_outcome", [0, 0], [0.9, 0.8]),
    ("one_positive_of_many", [0] * 9 + [1], [0.1] * 10),
    ("integer_probabilities", [1, 0], [1, 0]),
    ("long_list", [i % 2 for i in range(500)], [(i % 7) / 6 for i in range(500)]),
]


def _case(rng):
    n = rng.choice([1, 2, 3, rng.randint(1, 20), rng.randint(10, 300)])
    outcomes = [int(rng.random() < rng.choice([0.1, 0.5, 0.9])) for _ in range(n)]
    probabilities = [rng.choice([0.0, 1.0, 0.5, round(rng.random(), 3), rng.random()]) for _ in range(n)]
    return outcomes, probabilities


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    inputs = []
    for _ in range(count):
        outcomes, probabilities = _case(rng)
        if rng.random() < 0.05:
            probabilities[rng.randrange(len(probabilities))] = rng.choice([1.01, -0.01, 3.0])
        inputs.append(([outcomes, probabilities], {}))
    return inputs


def main():
    brier_score = load_reference(FOLDER).brier_score
    rng = random.Random(SEED)
    cases = list(EDGE_CASES)
    for i in range(40):
        outcomes, probabilities = _case(rng)
        cases.append((f"random_{i:02d}", outcomes, probabilities))
    write_hidden(FOLDER, [(name, [o, p]) for name, o, p in cases], brier_score, raises=ValueError,
                 check=lambda v: type(v) is float and math.isfinite(v) and 0 <= v <= 1)


if __name__ == "__main__":
    main()
