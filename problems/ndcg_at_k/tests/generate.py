"""Rebuild tests/hidden.json for ndcg_at_k deterministically.

Run from anywhere: python problems/ndcg_at_k/tests/generate.py
Expected values come from reference.py in the problem folder.
"""

import math
import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 2317

EDGE_CASES = [
    ("negative_k_raises", [1, 2], -1),
    ("negative_grade_raises", [1, -1, 2], 2),
    ("empty_list", [], 3),
    ("single_positive", [2], 1),
    ("single_zero", [0], 1),
    ("relevant_only_beyond_k", [0, 0, 0, 5], 3),
    ("ideal_reaches_beyond_k", [0, 0, 0, 5], 4),
    ("reversed_order", [0, 1, 2, 3], 4),
    ("already_ideal", [3, 2, 1, 0], 4),
    ("k_larger_than_list", [1, 3], 10),
    ("float_grades", [0.5, 2.25, 0.0, 1.75], 3),
    ("all_equal", [2, 2, 2, 2], 3),
    ("one_at_the_end_of_long", [0] * 49 + [1], 50),
    ("ideal_uncut_differs", [3, 0, 0, 3, 3], 2),
    ("top_zero_then_best", [0, 3, 2], 1),
]


def _grades(rng):
    length = rng.choice([1, 2, 3, rng.randint(1, 10), rng.randint(5, 30)])
    if rng.random() < 0.7:
        return [rng.choice([0, 0, 1, 2, 3]) for _ in range(length)]
    return [round(rng.uniform(0, 4), 2) for _ in range(length)]


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    inputs = []
    for _ in range(count):
        grades = _grades(rng)
        k = rng.choice([1, 2, 3, 5, len(grades), len(grades) + 2, rng.randint(1, 12)])
        if rng.random() < 0.03:
            k = 0
        inputs.append(([grades, k], {}))
    return inputs


def main():
    ndcg_at_k = load_reference(FOLDER).ndcg_at_k
    rng = random.Random(SEED)
    cases = list(EDGE_CASES)
    for i in range(40):
        grades = _grades(rng)
        cases.append((f"random_{i:02d}", grades, rng.choice([1, 2, 3, 5, 10, len(grades)])))
    write_hidden(FOLDER, [(name, [g, k]) for name, g, k in cases], ndcg_at_k, raises=ValueError,
                 check=lambda value: type(value) is float and math.isfinite(value) and 0 <= value <= 1 + 1e-12)


if __name__ == "__main__":
    main()
