"""Rebuild tests/hidden.json for wilson_interval deterministically.

Run from anywhere: python problems/wilson_interval/tests/generate.py
Expected values come from reference.py in the problem folder.
"""

import math
import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 1927


# (name, args, kwargs)
EDGE_CASES = [
    ("one_of_one", [1, 1], {}),
    ("zero_of_one", [0, 1], {}),
    ("half_of_two", [1, 2], {}),
    ("half_of_fifty", [25, 50], {}),
    ("perfect_fifty", [50, 50], {}),
    ("zero_of_fifty", [0, 50], {}),
    ("one_of_fifty", [1, 50], {}),
    ("forty_nine_of_fifty", [49, 50], {}),
    ("perfect_hundred_fifty", [150, 150], {}),
    ("large_n_half", [500000, 1000000], {}),
    ("large_n_one_success", [1, 1000000], {}),
    ("large_n_all_but_one", [999999, 1000000], {}),
    ("z_integer_one", [7, 15], {"z": 1}),
    ("z_small", [7, 15], {"z": 0.5}),
    ("z_large", [7, 15], {"z": 4.0}),
    ("z_90_percent_perfect", [15, 15], {"z": 1.645}),
    ("z_positional", [3, 20, 2.576], {}),
    ("zero_answers_one_correct", [1, 0], {}),
    ("negative_n", [0, -5], {}),
    ("correct_above_n", [16, 15], {}),
    ("negative_correct", [-1, 15], {}),
    ("correct_above_n_large_z", [16, 15], {"z": 4.0}),
    ("negative_correct_large_z", [-1, 15], {"z": 4.0}),
]


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    inputs = []
    for _ in range(count):
        n = rng.choice([rng.randint(-2, 3), rng.randint(1, 20), rng.randint(15, 50), rng.randint(50, 5000)])
        correct = rng.choice([0, n, rng.randint(0, max(n, 0)), rng.randint(0, max(n, 0)), -1, n + 1,
                              rng.randint(-3, n + 3)])
        roll = rng.random()
        if roll < 0.4:
            inputs.append(([correct, n], {}))
        elif roll < 0.7:
            inputs.append(([correct, n], {"z": rng.choice([0.5, 1.0, 1.645, 1.96, 2.576, 3.291, 5.0])}))
        else:
            inputs.append(([correct, n, round(rng.uniform(0.1, 6.0), 4)], {}))
    return inputs


def as_called(args, kwargs):
    """z is declared float: the judge passes a JSON integer z (here `{"z": 1}`) as a float."""
    return list(args[:2]) + [float(a) for a in args[2:]], {key: float(value) for key, value in kwargs.items()}


def is_interval(value):
    lower, upper = value
    return (type(lower) is float and type(upper) is float and math.isfinite(lower) and math.isfinite(upper)
            and 0.0 <= lower <= upper <= 1.0)


def main():
    wilson_interval = load_reference(FOLDER).wilson_interval
    rng = random.Random(SEED)
    cases = list(EDGE_CASES)
    for i in range(24):
        n = rng.choice([rng.randint(1, 20), rng.randint(15, 50), rng.randint(50, 2000)])
        correct = rng.choice([0, n, rng.randint(0, n), rng.randint(0, n), rng.randint(0, n)])
        roll = rng.random()
        if roll < 0.5:
            cases.append((f"random_default_z_{i:02d}", [correct, n], {}))
        elif roll < 0.75:
            cases.append((f"random_keyword_z_{i:02d}", [correct, n],
                          {"z": rng.choice([1.0, 1.645, 2.326, 2.576, 3.291])}))
        else:
            cases.append((f"random_any_z_{i:02d}", [correct, n, round(rng.uniform(0.1, 5.0), 4)], {}))

    write_hidden(FOLDER, cases, wilson_interval, raises=ValueError, convert=as_called, check=is_interval)


if __name__ == "__main__":
    main()
