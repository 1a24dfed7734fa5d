"""Rebuild tests/hidden.json for average_precision deterministically.

Run from anywhere: python problems/average_precision/tests/generate.py
Expected values come from reference.py in the problem folder.
"""

import math
import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 2316
IDS = [f"d{i}" for i in range(10)] + ["D1", "d01", "caf\u00e9", ""]

EDGE_CASES = [
    ("empty_relevant_empty_ranking_raises", [], []),
    ("empty_ranking", [], ["a"]),
    ("single_hit_on_top", ["a"], ["a"]),
    ("single_hit_last", ["x", "y", "z", "a"], ["a"]),
    ("hit_then_misses", ["a", "x", "y"], ["a", "b"]),
    ("repeats_before_hit", ["x", "x", "a"], ["a"]),
    ("relevant_repeated_many", ["a", "a", "a", "b"], ["a", "b"]),
    ("repeated_relevant_list", ["a"], ["a", "a"]),
    ("all_relevant", ["c", "b", "a"], ["a", "b", "c"]),
    ("reverse_order_hits", ["x", "x", "a", "b"], ["b", "a"]),
    ("case_matters", ["A", "a"], ["a"]),
    ("prefix_differs", ["d01", "d1"], ["d1"]),
    ("empty_string_id", ["", "a"], [""]),
    ("long_ranking_one_late_hit", [f"x{i}" for i in range(50)] + ["a"], ["a"]),
    ("half_retrieved", ["a", "x", "b"], ["a", "b", "c", "d"]),
]


def _case(rng):
    ranking = [rng.choice(IDS) for _ in range(rng.choice([0, 1, 3, rng.randint(1, 12), rng.randint(5, 25)]))]
    return ranking, [rng.choice(IDS) for _ in range(rng.randint(1, 6))]


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    inputs = []
    for _ in range(count):
        ranking, relevant = _case(rng)
        if rng.random() < 0.03:
            relevant = []
        inputs.append(([ranking, relevant], {}))
    return inputs


def main():
    average_precision = load_reference(FOLDER).average_precision
    rng = random.Random(SEED)
    cases = list(EDGE_CASES)
    for i in range(36):
        ranking, relevant = _case(rng)
        cases.append((f"random_{i:02d}", ranking, relevant))
    write_hidden(FOLDER, [(name, [r, v]) for name, r, v in cases], average_precision, raises=ValueError,
                 check=lambda value: type(value) is float and math.isfinite(value) and 0 <= value <= 1)


if __name__ == "__main__":
    main()
