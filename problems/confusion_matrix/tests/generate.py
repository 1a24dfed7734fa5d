"""Rebuild tests/hidden.json for confusion_matrix deterministically.

Run from anywhere: python problems/confusion_matrix/tests/generate.py
Expected values come from reference.py in the problem folder.
"""

import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 2331
# Out of alphabetical order on purpose, with case, empty, space and non-ASCII labels.
POOL = ["pos", "neg", "neu", "Pos", "", " ", "caf\u00e9", "cafe", "z", "a", "\u6771\u4eac", "B", "b"]

EDGE_CASES = [
    ("predicted_unknown_raises", ["a", "b"], ["a"], ["c"]),
    ("unknown_after_valid_raises", ["a", "b"], ["a", "b", "a", "x"], ["a", "b", "b", "a"]),
    ("case_differs_raises", ["pos", "neg"], ["Pos"], ["pos"]),
    ("duplicate_label_empty_data_raises", ["a", "b", "a"], [], []),
    ("duplicate_empty_string_raises", ["", "a", ""], ["a"], ["a"]),
    ("predicted_longer_raises", ["a"], [], ["a"]),
    ("gold_longer_raises", ["a", "b"], ["a", "b", "a"], ["a", "b"]),
    ("no_labels_no_data", [], [], []),
    ("no_labels_with_data_raises", [], ["a"], ["a"]),
    ("single_label", ["only"], ["only", "only", "only"], ["only", "only", "only"]),
    ("single_item_off_diagonal", ["a", "b"], ["b"], ["a"]),
    ("asymmetric_errors", ["a", "b", "c"], ["a", "a", "a", "b"], ["b", "c", "c", "a"]),
    ("reverse_alphabetical_order", ["z", "b", "a"], ["a", "b", "z", "a"], ["z", "b", "a", "b"]),
    ("empty_string_label", ["", " ", "x"], ["", " ", "x", ""], [" ", "", "x", "x"]),
    ("unicode_labels", ["caf\u00e9", "cafe", "\u6771\u4eac"], ["caf\u00e9", "cafe", "\u6771\u4eac"],
     ["cafe", "caf\u00e9", "\u6771\u4eac"]),
    ("upper_before_lower", ["b", "B"], ["B", "b", "B"], ["b", "b", "B"]),
    ("all_wrong", ["x", "y"], ["x", "x", "y"], ["y", "y", "x"]),
    ("all_right", ["x", "y", "w"], ["w", "x", "y", "w"], ["w", "x", "y", "w"]),
    ("one_column_predicted", ["p", "q", "r"], ["p", "q", "r", "q"], ["r", "r", "r", "r"]),
    ("many_items", ["a", "b", "c"], ["a", "b", "c"] * 100, ["b", "b", "a"] * 100),
]


def _case(rng):
    m = rng.choice([1, 2, 3, rng.randint(1, len(POOL))])
    labels = rng.sample(POOL, m)
    n = rng.choice([0, 1, 2, rng.randint(1, 15), rng.randint(10, 120)])
    gold = [rng.choice(labels) for _ in range(n)]
    skill = rng.choice([0.0, 0.4, 0.8, 1.0])
    predicted = [g if rng.random() < skill else rng.choice(labels) for g in gold]
    return labels, gold, predicted


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    inputs = []
    for _ in range(count):
        labels, gold, predicted = _case(rng)
        roll = rng.random()
        if roll < 0.03 and labels:
            labels = [*labels, rng.choice(labels)]
        elif roll < 0.06 and gold:
            side = rng.choice([gold, predicted])
            side[rng.randrange(len(side))] = "unknown"
        elif roll < 0.08:
            predicted = [*predicted, "a"]
        inputs.append(([labels, gold, predicted], {}))
    return inputs


def _check(value):
    return type(value) is list and all(
        type(row) is list and len(row) == len(value) and all(type(c) is int and c >= 0 for c in row)
        for row in value)


def main():
    confusion_matrix = load_reference(FOLDER).confusion_matrix
    rng = random.Random(SEED)
    cases = list(EDGE_CASES)
    for i in range(40):
        labels, gold, predicted = _case(rng)
        cases.append((f"random_{i:02d}", labels, gold, predicted))
    write_hidden(FOLDER, [(name, [lab, g, p]) for name, lab, g, p in cases], confusion_matrix,
                 raises=ValueError, check=_check)


if __name__ == "__main__":
    main()
