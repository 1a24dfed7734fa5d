"""Rebuild tests/hidden.json for expected_calibration_error deterministically.

Run from anywhere: python problems/expected_calibration_error/tests/generate.py
Expected values come from reference.py in the problem folder.
"""

import math
import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 2333

EDGE_CASES = [
    ("negative_bins_raises", [1, 0], [0.5, 0.5], -3),
    ("zero_bins_with_empty_lists_raises", [], [], 0),
    ("empty_raises", [], [], 10),
    ("lengths_differ_raises", [1, 0], [0.5], 10),
    ("outcome_two_raises", [2], [0.5], 10),
    ("outcome_negative_raises", [1, -1], [0.5, 0.5], 10),
    ("probability_negative_raises", [0, 1], [-0.0001, 0.5], 10),
    ("probability_just_above_one_raises", [1], [1.0000001], 1),
    ("out_of_range_after_valid_raises", [1, 1, 1], [0.2, 0.4, 1.5], 5),
    ("single_bin_overall_gap", [1, 1, 0, 0, 0], [0.9, 0.1, 0.4, 0.3, 0.8], 1),
    ("single_forecast", [1], [0.25], 10),
    ("one_in_last_of_three", [1, 0, 0], [1.0, 1.0, 0.2], 3),
    ("one_in_last_of_one", [0], [1.0], 1),
    ("two_bins_half_goes_up", [1, 0, 1, 0], [0.5, 0.5, 0.49, 0.2], 2),
    ("boundaries_tenths", [1, 0, 1, 0, 1, 0, 1, 0], [0.3, 0.35, 0.5, 0.55, 0.6, 0.65, 0.9, 0.95], 10),
    ("boundaries_fifths", [1, 0, 0, 1], [0.6, 0.7, 0.4, 0.2], 5),
    ("boundaries_twentieths", [1, 0, 1, 0, 1, 0], [0.15, 0.18, 0.25, 0.28, 0.85, 0.88], 20),
    ("float_product_rounds_down", [1, 0, 1, 0], [0.29, 0.285, 0.57, 0.575], 100),
    ("zero_and_negative_zero", [0, 1, 0], [0.0, -0.0, 0.05], 10),
    ("overconfident_and_underconfident", [0, 0, 1, 1], [0.9, 0.95, 0.1, 0.05], 10),
    ("signs_cancel_in_one_bin", [1, 0], [0.6, 0.6], 1),
    ("perfectly_calibrated", [1, 0, 1, 0], [0.5, 0.5, 0.5, 0.5], 10),
    ("unequal_bin_sizes", [1, 1, 1, 1, 0, 0], [0.95, 0.92, 0.91, 0.99, 0.05, 0.5], 10),
    ("more_bins_than_forecasts", [1, 0, 1], [0.123, 0.456, 0.789], 1000),
    ("huge_bins", [1, 0, 1, 0], [0.5, 0.5000000001, 0.2, 1.0], 10**9),
    ("integer_probabilities", [1, 0, 1], [1, 0, 0], 4),
    ("long_list", [i % 3 % 2 for i in range(600)], [(i % 101) / 100 for i in range(600)], 15),
]


def _case(rng):
    bins = rng.choice([1, 2, 3, 5, 10, 10, 15, 20, rng.randint(1, 50)])
    n = rng.choice([1, 2, 3, rng.randint(1, 20), rng.randint(10, 300)])
    bias = rng.choice([0.0, 0.0, 0.2, -0.2])
    probabilities, outcomes = [], []
    for _ in range(n):
        roll = rng.random()
        if roll < 0.3:
            p = rng.randint(0, bins) / bins  # exactly on a boundary
        elif roll < 0.4:
            p = rng.choice([0.0, 1.0, 0.5])
        elif roll < 0.6:
            p = round(rng.random(), 2)
        else:
            p = rng.random()
        probabilities.append(p)
        outcomes.append(int(rng.random() < min(max(p + bias, 0.0), 1.0)))
    return outcomes, probabilities, bins


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    inputs = []
    for _ in range(count):
        outcomes, probabilities, bins = _case(rng)
        roll = rng.random()
        if roll < 0.05:
            probabilities[rng.randrange(len(probabilities))] = rng.choice([1.01, -0.01, 3.0])
        elif roll < 0.08:
            outcomes[rng.randrange(len(outcomes))] = rng.choice([2, -1])
        elif roll < 0.12:
            bins = rng.choice([0, -1, 1])
        inputs.append(([outcomes, probabilities, bins], {}))
    return inputs


def main():
    expected_calibration_error = load_reference(FOLDER).expected_calibration_error
    rng = random.Random(SEED)
    cases = list(EDGE_CASES)
    for i in range(40):
        outcomes, probabilities, bins = _case(rng)
        cases.append((f"random_{i:02d}", outcomes, probabilities, bins))
    write_hidden(FOLDER, [(name, [o, p, b]) for name, o, p, b in cases], expected_calibration_error,
                 raises=ValueError, check=lambda v: type(v) is float and math.isfinite(v) and 0 <= v <= 1)


if __name__ == "__main__":
    main()
