"""Rebuild tests/hidden.json for log_loss deterministically.

Run from anywhere: python problems/log_loss/tests/generate.py
Expected values come from reference.py in the problem folder.
"""

import math
import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 2332

EDGE_CASES = [
    ("lengths_differ_raises", [1, 0], [0.5]),
    ("outcome_two_raises", [2], [0.5]),
    ("outcome_negative_raises", [1, -1], [0.5, 0.5]),
    ("probability_negative_raises", [0, 1], [-0.0001, 0.5]),
    ("probability_above_one_raises", [1], [1.0000001]),
    ("probability_far_above_raises", [0], [2.0]),
    ("out_of_range_after_valid_raises", [1, 1, 1], [0.2, 0.4, 1.5]),
    ("zero_for_positive_clipped", [0, 1], [0.3, 0.0]),
    ("one_for_negative_clipped", [0], [1.0]),
    ("certain_wrong_among_many", [1, 0, 1, 0, 1], [0.9, 0.1, 0.8, 0.2, 0.0]),
    ("zero_for_negative_is_free", [0, 0], [0.0, 0.0]),
    ("one_for_positive_is_free", [1, 1, 1], [1.0, 1.0, 1.0]),
    ("certain_right_mixed", [1, 0, 1, 0], [1.0, 0.0, 0.5, 0.5]),
    ("tiny_probability_clipped", [1], [1e-300]),
    ("denormal_probability", [1, 0], [5e-324, 0.5]),
    ("almost_one_for_negative", [0], [0.9999999999999999]),
    ("just_below_clip", [1, 0], [1e-16, 1e-16]),
    ("all_negative_outcomes", [0, 0, 0], [0.1, 0.2, 0.3]),
    ("all_positive_outcomes", [1, 1, 1], [0.1, 0.2, 0.3]),
    ("one_positive_of_many", [0] * 9 + [1], [0.1] * 10),
    ("integer_probabilities", [1, 0, 1], [1, 0, 1]),
    ("asymmetric_probabilities", [0, 1], [0.7, 0.7]),
    ("long_list", [i % 2 for i in range(500)], [(1 + i % 7) / 8 for i in range(500)]),
]


def _probability(rng, outcome):
    roll = rng.random()
    if roll < 0.1:
        return float(outcome)  # certain and right (certain and wrong is left to the edge cases)
    if roll < 0.15:
        return 0.5
    if roll < 0.2:
        return rng.choice([1e-12, 1e-300, 1 - 1e-12])
    if roll < 0.3:
        return round(rng.random(), 3) or 0.5
    return rng.random() or 0.5


def _case(rng):
    n = rng.choice([1, 2, 3, rng.randint(1, 20), rng.randint(10, 300)])
    rate = rng.choice([0.1, 0.5, 0.9])
    outcomes = [int(rng.random() < rate) for _ in range(n)]
    probabilities = [_probability(rng, o) for o in outcomes]
    return outcomes, probabilities


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    inputs = []
    for _ in range(count):
        outcomes, probabilities = _case(rng)
        roll = rng.random()
        if roll < 0.05:
            probabilities[rng.randrange(len(probabilities))] = rng.choice([1.01, -0.01, 3.0])
        elif roll < 0.1:
            i = rng.randrange(len(probabilities))
            probabilities[i] = 1.0 - outcomes[i]
        elif roll < 0.12:
            outcomes[rng.randrange(len(outcomes))] = rng.choice([2, -1])
        inputs.append(([outcomes, probabilities], {}))
    return inputs


def main():
    log_loss = load_reference(FOLDER).log_loss
    rng = random.Random(SEED)
    cases = list(EDGE_CASES)
    for i in range(40):
        outcomes, probabilities = _case(rng)
        cases.append((f"random_{i:02d}", outcomes, probabilities))
    write_hidden(FOLDER, [(name, [o, p]) for name, o, p in cases], log_loss, raises=ValueError,
                 check=lambda v: type(v) is float and math.isfinite(v) and v >= 0)


if __name__ == "__main__":
    main()
