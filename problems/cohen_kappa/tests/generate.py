"""Rebuild tests/hidden.json for cohen_kappa deterministically.

Run from anywhere: python problems/cohen_kappa/tests/generate.py
Expected values come from reference.py in the problem folder.
"""

import math
import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 2332
POOL = ["pos", "neg", "neu", "Pos", "", " ", "caf\u00e9", "\u6771\u4eac", "x", "y"]

EDGE_CASES = [
    ("lengths_differ_raises", ["a", "b"], ["a"]),
    ("predicted_longer_raises", [], ["a"]),
    ("single_item_raises", ["a"], ["a"]),
    ("long_constant_same_raises", ["x"] * 50, ["x"] * 50),
    ("empty_string_constant_raises", ["", ""], ["", ""]),
    ("single_item_disagree", ["a"], ["b"]),
    ("one_rater_constant", ["a", "a"], ["a", "b"]),
    ("other_rater_constant", ["a", "b", "b"], ["b", "b", "b"]),
    ("label_only_gold_uses", ["a", "b", "c", "a"], ["a", "b", "b", "a"]),
    ("label_only_predicted_uses", ["a", "b", "b", "a"], ["a", "b", "z", "a"]),
    ("case_differs", ["pos", "Pos", "pos"], ["Pos", "Pos", "pos"]),
    ("perfect_two_labels", ["a", "b", "a", "a"], ["a", "b", "a", "a"]),
    ("skewed_high_accuracy", ["neg"] * 18 + ["pos"] * 2, ["neg"] * 19 + ["pos"]),
    ("skewed_always_majority", ["neg"] * 18 + ["pos"] * 2, ["neg"] * 20),
    ("different_marginals", ["a"] * 6 + ["b"] * 4, ["a"] * 2 + ["b"] * 4 + ["a"] * 4),
    ("three_labels_skewed", ["a", "a", "a", "a", "b", "b", "c", "a"],
     ["a", "a", "b", "c", "b", "a", "c", "a"]),
    ("worse_than_chance", ["a", "a", "b", "b", "c"], ["b", "c", "a", "c", "a"]),
    ("permuted_labels", ["a", "b", "c", "a", "b", "c"], ["b", "c", "a", "b", "c", "a"]),
    ("many_items", ["a", "b", "c"] * 200, ["a", "b", "b"] * 200),
]


def _case(rng):
    n = rng.choice([2, 3, rng.randint(2, 15), rng.randint(10, 200), rng.randint(10, 200)])
    labels = rng.sample(POOL, rng.choice([2, 2, 3, 3, rng.randint(2, len(POOL))]))
    weights = [rng.choice([1, 1, 3, 10]) for _ in labels]
    gold = rng.choices(labels, weights, k=n)
    skill = rng.choice([0.0, 0.3, 0.6, 0.8, 0.9, 1.0])
    other = rng.sample(labels, len(labels))
    predicted = [g if rng.random() < skill else rng.choices(other, weights)[0] for g in gold]
    return gold, predicted


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    inputs = []
    for _ in range(count):
        gold, predicted = _case(rng)
        roll = rng.random()
        if roll < 0.03:
            predicted = predicted[1:]
        elif roll < 0.06:
            gold = predicted = [rng.choice(POOL)] * rng.randint(0, 4)
        inputs.append(([gold, list(predicted)], {}))
    return inputs


def main():
    cohen_kappa = load_reference(FOLDER).cohen_kappa
    rng = random.Random(SEED)
    cases = list(EDGE_CASES)
    for i in range(40):
        gold, predicted = _case(rng)
        cases.append((f"random_{i:02d}", gold, predicted))
    write_hidden(FOLDER, [(name, [g, p]) for name, g, p in cases], cohen_kappa, raises=ValueError,
                 check=lambda v: type(v) is float and math.isfinite(v) and -1 - 1e-12 <= v <= 1 + 1e-12)


if __name__ == "__main__":
    main()
