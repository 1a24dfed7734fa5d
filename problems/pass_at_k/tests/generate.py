"""Rebuild tests/hidden.json for pass_at_k deterministically.

Run from anywhere: python problems/pass_at_k/tests/generate.py
Expected values come from reference.py in the problem folder.
"""

import math
import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 1107
BIG = 10**6

EDGE_CASES = [
    ("n_zero_raises", 0, 0, 1),
    ("n_negative_raises", -3, 0, 1),
    ("all_zero_raises", 0, 0, 0),
    ("c_negative_raises", 5, -1, 2),
    ("c_above_n_raises", 5, 6, 2),
    ("k_zero_raises", 5, 2, 0),
    ("k_negative_raises", 5, 2, -1),
    ("k_above_n_raises", 5, 2, 6),
    ("k_far_above_n_raises", 3, 3, 100),
    ("single_sample_fails", 1, 0, 1),
    ("single_sample_passes", 1, 1, 1),
    ("c_equals_n", 7, 7, 3),
    ("c_equals_n_k_equals_n", 4, 4, 4),
    ("k_equals_n_one_pass", 6, 1, 6),
    ("k_equals_n_none_pass", 6, 0, 6),
    ("no_pass_large_k", 50, 0, 25),
    ("failures_equal_k", 5, 2, 3),
    ("failures_equal_k_small", 3, 1, 2),
    ("failures_one_below_k", 5, 3, 3),
    ("failures_one_above_k", 6, 2, 3),
    ("k_one_is_c_over_n", 10, 3, 1),
    ("k_one_one_of_many", 200, 1, 1),
    ("two_samples_one_pass_k1", 2, 1, 1),
    ("two_samples_one_pass_k2", 2, 1, 2),
    ("big_one_pass_k1", BIG, 1, 1),
    ("big_one_pass_k10", BIG, 1, 10),
    ("big_half_pass_k1", BIG, BIG // 2, 1),
    ("big_half_pass_half_k", BIG, BIG // 2, BIG // 2),
    ("big_few_pass_large_k", BIG, 3, 100_000),
    ("big_almost_all_pass", BIG, BIG - 1, 1),
    ("big_all_but_two_pass_k3", BIG, BIG - 2, 3),
    ("big_failures_equal_k", BIG, 10, BIG - 10),
    ("big_none_pass", BIG, 0, 1000),
    ("big_k_equals_n", BIG, 1, BIG),
    ("binomials_overflow_floats", 2000, 40, 1000),
    ("humaneval_200_samples_k100", 200, 13, 100),
    ("humaneval_200_samples_k10", 200, 13, 10),
]


def _case(rng):
    n = rng.choice([rng.randint(1, 10), rng.randint(1, 60), rng.randint(100, 2000), 200])
    c = rng.choice([0, n, rng.randint(0, n), rng.randint(0, max(0, n // 10)), max(0, n - rng.randint(1, 5))])
    k = rng.choice([1, n, rng.randint(1, n), min(n, rng.choice([1, 5, 10, 100])),
                    max(1, n - c), max(1, n - c + 1)])
    return n, max(0, c), min(n, k)


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    inputs = []
    for _ in range(count):
        n, c, k = _case(rng)
        roll = rng.random()
        if roll < 0.03:
            n = rng.choice([0, -1])
        elif roll < 0.06:
            c = rng.choice([-1, n + 1])
        elif roll < 0.09:
            k = rng.choice([0, -1, n + 1])
        inputs.append(([n, c, k], {}))
    return inputs


def main():
    pass_at_k = load_reference(FOLDER).pass_at_k
    rng = random.Random(SEED)
    cases = [(name, [n, c, k]) for name, n, c, k in EDGE_CASES]
    for i in range(40):
        cases.append((f"random_{i:02d}", list(_case(rng))))
    write_hidden(FOLDER, cases, pass_at_k, raises=ValueError,
                 check=lambda v: type(v) is float and math.isfinite(v) and 0.0 <= v <= 1.0)


if __name__ == "__main__":
    main()
