"""Rebuild tests/hidden.json for recall_at_k deterministically.

Run from anywhere: python problems/recall_at_k/tests/generate.py
Expected values come from reference.py in the problem folder.
"""

import math
import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 2314
IDS = [f"d{i}" for i in range(10)] + ["D1", "d01", "caf\u00e9", ""]

EDGE_CASES = [
    ("negative_k_raises", ["a"], ["a"], -1),
    ("empty_relevant_empty_ranking_raises", [], [], 3),
    ("empty_ranking", [], ["a"], 3),
    ("hit_exactly_at_k", ["x", "y", "a"], ["a"], 3),
    ("hit_just_after_k", ["x", "y", "a"], ["a"], 2),
    ("hit_at_one", ["a", "x"], ["a"], 1),
    ("k_of_one_misses", ["x", "a"], ["a"], 1),
    ("k_larger_than_ranking", ["a", "b"], ["a", "b", "c", "d"], 100),
    ("repeated_relevant_list", ["a"], ["a", "a", "b"], 1),
    ("repeats_in_window", ["a", "a", "a", "b"], ["a", "b", "c"], 3),
    ("all_found", ["c", "b", "a"], ["a", "b", "c"], 3),
    ("case_matters", ["A"], ["a"], 1),
    ("prefix_differs", ["d01"], ["d1"], 1),
    ("empty_string_id", ["", "a"], [""], 1),
    ("long_ranking_late_hit", [f"x{i}" for i in range(50)] + ["a"], ["a"], 51),
    ("long_ranking_cut_before_hit", [f"x{i}" for i in range(50)] + ["a"], ["a"], 50),
]


def _case(rng):
    ranking = [rng.choice(IDS) for _ in range(rng.choice([0, 1, 3, rng.randint(1, 12), rng.randint(5, 25)]))]
    relevant = [rng.choice(IDS) for _ in range(rng.randint(1, 6))]
    k = rng.choice([1, 2, 3, 5, 10, rng.randint(1, 30), max(1, len(ranking)), len(ranking) + 1])
    return ranking, relevant, k


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    inputs = []
    for _ in range(count):
        ranking, relevant, k = _case(rng)
        if rng.random() < 0.05:
            k = rng.choice([0, -1])
        inputs.append(([ranking, relevant, k], {}))
    return inputs


def main():
    recall_at_k = load_reference(FOLDER).recall_at_k
    rng = random.Random(SEED)
    cases = list(EDGE_CASES)
    for i in range(36):
        ranking, relevant, k = _case(rng)
        cases.append((f"random_{i:02d}", ranking, relevant, k))
    write_hidden(FOLDER, [(name, [r, v, k]) for name, r, v, k in cases], recall_at_k, raises=ValueError,
                 check=lambda value: type(value) is float and math.isfinite(value) and 0 <= value <= 1)


if __name__ == "__main__":
    main()
