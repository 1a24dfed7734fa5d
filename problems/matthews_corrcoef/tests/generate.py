"""Rebuild tests/hidden.json for matthews_corrcoef deterministically.

Run from anywhere: python problems/matthews_corrcoef/tests/generate.py
Expected values come from reference.py in the problem folder.
"""

import math
import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 2320

EDGE_CASES = [
    ("empty_raises", [], []),
    ("lengths_differ_raises", [1, 0], [1]),
    ("negative_label_raises", [1, 0], [-1, 0]),
    ("single_item_positive", [1], [1]),
    ("single_item_negative", [0], [0]),
    ("all_positive_gold", [1, 1, 1], [1, 0, 1]),
    ("all_predicted_positive", [1, 0, 0], [1, 1, 1]),
    ("all_predicted_negative", [1, 0, 1], [0, 0, 0]),
    ("chance_level", [1, 1, 0, 0], [1, 0, 1, 0]),
    ("imbalanced_always_no", [0] * 99 + [1], [0] * 100),
    ("imbalanced_one_hit", [0] * 99 + [1], [0] * 98 + [1, 1]),
    ("fp_fn_asymmetric", [1, 1, 1, 0, 0], [1, 0, 0, 1, 0]),
    ("large_counts", [1] * 300 + [0] * 700, [1] * 250 + [0] * 50 + [1] * 100 + [0] * 600),
]


def _pair(rng):
    n = rng.choice([2, 3, 5, rng.randint(2, 20), rng.randint(10, 200)])
    rate = rng.choice([0.05, 0.3, 0.5, 0.8])
    gold = [int(rng.random() < rate) for _ in range(n)]
    skill = rng.choice([0.5, 0.7, 0.9, 1.0, 0.2])
    predicted = [g if rng.random() < skill else 1 - g for g in gold]
    return gold, predicted


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    return [(list(_pair(rng)), {}) for _ in range(count)]


def main():
    matthews_corrcoef = load_reference(FOLDER).matthews_corrcoef
    rng = random.Random(SEED)
    cases = list(EDGE_CASES)
    for i in range(40):
        gold, predicted = _pair(rng)
        cases.append((f"random_{i:02d}", gold, predicted))
    write_hidden(FOLDER, [(name, [g, p]) for name, g, p in cases], matthews_corrcoef, raises=ValueError,
                 check=lambda v: type(v) is float and math.isfinite(v) and -1 - 1e-12 <= v <= 1 + 1e-12)


if __name__ == "__main__":
    main()
