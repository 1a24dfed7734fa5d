"""Rebuild tests/hidden.json for mean_reciprocal_rank deterministically.

Run from anywhere: python problems/mean_reciprocal_rank/tests/generate.py
Expected values come from reference.py in the problem folder.
"""

import math
import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 2313
IDS = [f"d{i}" for i in range(12)] + ["D1", "d01", "caf\u00e9", ""]

EDGE_CASES = [
    ("length_mismatch_raises", [["a"]], [["a"], ["b"]]),
    ("length_mismatch_other_way_raises", [["a"], ["b"]], [["a"]]),
    ("empty_ranking", [[]], [["a"]]),
    ("empty_relevant", [["a", "b"]], [[]]),
    ("both_empty_lists", [[]], [[]]),
    ("single_hit_at_top", [["a"]], [["a"]]),
    ("hit_at_rank_ten", [[f"x{i}" for i in range(9)] + ["a"]], [["a"]]),
    ("hit_at_last_of_long", [[f"x{i}" for i in range(99)] + ["a"]], [["a"]]),
    ("all_queries_miss", [["a"], ["b"], ["c"]], [["z"], ["y"], ["x"]]),
    ("all_queries_top", [["a"], ["b"]], [["a"], ["b"]]),
    ("case_matters", [["A", "a"]], [["a"]]),
    ("prefix_is_not_equal", [["d01", "d1"]], [["d1"]]),
    ("empty_string_id", [["", "a"]], [[""]]),
    ("duplicate_before_hit", [["x", "x", "x", "a"]], [["a"]]),
    ("duplicate_relevant_ids", [["b", "a"]], [["a", "a"]]),
    ("many_relevant_first_counts", [["b", "a", "c"]], [["c", "a", "b"]]),
    ("one_hit_one_miss_one_third", [["q", "a"], ["b"], ["z", "z", "c"]], [["a"], ["y"], ["c"]]),
]


def _query(rng):
    ranking = [rng.choice(IDS) for _ in range(rng.choice([0, 1, 2, 3, rng.randint(1, 10), rng.randint(5, 20)]))]
    relevant = [rng.choice(IDS) for _ in range(rng.choice([0, 1, 1, 2, rng.randint(1, 5)]))]
    return ranking, relevant


def _case(rng):
    queries = [_query(rng) for _ in range(rng.randint(1, 6))]
    return [q[0] for q in queries], [q[1] for q in queries]


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    inputs = []
    for _ in range(count):
        rankings, relevant = _case(rng)
        if rng.random() < 0.05:
            relevant = relevant[:-1]
        inputs.append(([rankings, relevant], {}))
    return inputs


def main():
    mean_reciprocal_rank = load_reference(FOLDER).mean_reciprocal_rank
    rng = random.Random(SEED)
    cases = list(EDGE_CASES)
    for i in range(36):
        rankings, relevant = _case(rng)
        cases.append((f"random_{i:02d}", rankings, relevant))
    write_hidden(FOLDER, [(name, [r, v]) for name, r, v in cases], mean_reciprocal_rank, raises=ValueError,
                 check=lambda value: type(value) is float and math.isfinite(value) and 0 <= value <= 1)


if __name__ == "__main__":
    main()
