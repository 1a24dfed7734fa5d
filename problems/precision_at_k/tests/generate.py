"""Rebuild tests/hidden.json for precision_at_k deterministically.

Run from anywhere: python problems/precision_at_k/tests/generate.py
Expected values come from reference.py in the problem folder.
"""

import math
import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 2330
IDS = [f"d{i}" for i in range(10)] + ["D1", "d01", "caf\u00e9", ""]

EDGE_CASES = [
    ("negative_k_raises", ["a"], ["a"], -1),
    ("k_zero_empty_inputs_raises", [], [], 0),
    ("very_negative_k_raises", ["a", "b"], ["a"], -100),
    ("k_one_hit", ["a", "x"], ["a"], 1),
    ("k_one_miss", ["x", "a"], ["a"], 1),
    ("empty_ranking", [], ["a"], 3),
    ("empty_ranking_k_one", [], ["a"], 1),
    ("empty_relevant_empty_ranking", [], [], 2),
    ("single_hit_short_ranking", ["a"], ["a"], 4),
    ("hit_exactly_at_k", ["x", "y", "a"], ["a"], 3),
    ("hit_just_after_k", ["x", "y", "a"], ["a"], 2),
    ("k_equals_length", ["a", "b", "c"], ["a", "c"], 3),
    ("k_one_past_length", ["a", "b", "c"], ["a", "c"], 4),
    ("k_far_beyond_ranking", ["a", "b"], ["a", "b", "c", "d"], 100),
    ("all_hits", ["c", "b", "a"], ["a", "b", "c"], 3),
    ("repeats_in_window", ["a", "a", "a", "b"], ["a", "b", "c"], 3),
    ("repeats_beyond_window", ["a", "x", "a", "a"], ["a"], 2),
    ("repeated_relevant_list", ["a", "b"], ["a", "a", "a"], 2),
    ("repeated_miss_in_window", ["x", "x", "a"], ["a"], 3),
    ("case_matters", ["A"], ["a"], 1),
    ("prefix_differs", ["d01"], ["d1"], 1),
    ("empty_string_id", ["", "a"], [""], 1),
    ("unicode_id", ["caf\u00e9", "cafe"], ["caf\u00e9"], 2),
    ("long_ranking_late_hit", [f"x{i}" for i in range(50)] + ["a"], ["a"], 51),
    ("long_ranking_cut_before_hit", [f"x{i}" for i in range(50)] + ["a"], ["a"], 50),
    ("many_hits_long", [f"r{i}" for i in range(200)], [f"r{i}" for i in range(0, 200, 3)], 150),
]


def _case(rng):
    ranking = [rng.choice(IDS) for _ in range(rng.choice([0, 1, 3, rng.randint(1, 12), rng.randint(5, 25)]))]
    relevant = [rng.choice(IDS) for _ in range(rng.choice([0, 1, rng.randint(1, 6), rng.randint(3, 12)]))]
    k = rng.choice([1, 2, 3, 5, 10, rng.randint(1, 30), max(1, len(ranking)), len(ranking) + 1,
                    max(1, len(ranking) - 1)])
    return ranking, relevant, k


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    inputs = []
    for _ in range(count):
        ranking, relevant, k = _case(rng)
        if rng.random() < 0.05:
            k = rng.choice([0, -1, -5])
        inputs.append(([ranking, relevant, k], {}))
    return inputs


def main():
    precision_at_k = load_reference(FOLDER).precision_at_k
    rng = random.Random(SEED)
    cases = list(EDGE_CASES)
    for i in range(40):
        ranking, relevant, k = _case(rng)
        cases.append((f"random_{i:02d}", ranking, relevant, k))
    write_hidden(FOLDER, [(name, [r, v, k]) for name, r, v, k in cases], precision_at_k, raises=ValueError,
                 check=lambda value: type(value) is float and math.isfinite(value) and 0 <= value <= 1)


if __name__ == "__main__":
    main()
