"""Rebuild tests/hidden.json for classification_f1 deterministically.

Run from anywhere: python problems/classification_f1/tests/generate.py
Expected values come from reference.py in the problem folder.
"""

import math
import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 31337


GOLD = ["pos", "neg", "neu", "pos", "neg", "pos"]
PRED = ["pos", "pos", "neu", "neg", "neg", "neu"]

# (name, args, kwargs)
EDGE_CASES = [
    ("unknown_average_raises", [GOLD, PRED], {"average": "binary"}),
    ("average_is_case_sensitive", [GOLD, PRED], {"average": "Macro"}),
    ("length_mismatch_empty_prediction", [["a"], []], {}),
    ("empty_lists_macro", [[], []], {}),
    ("empty_lists_micro", [[], []], {"average": "micro"}),
    ("empty_lists_weighted", [[], []], {"average": "weighted"}),
    ("empty_lists_with_labels", [[], []], {"labels": ["a", "b"]}),
    ("empty_lists_with_labels_weighted", [[], [], "weighted", ["a"]], {}),
    ("labels_none_explicit", [GOLD, PRED], {"labels": None}),
    ("labels_unsorted_order", [GOLD, PRED, "macro", ["pos", "neu", "neg"]], {}),
    ("labels_listed_twice", [GOLD, PRED], {"labels": ["pos", "neg", "neu", "pos"]}),
    ("labels_subset_macro", [GOLD, PRED], {"labels": ["pos", "neg"]}),
    ("labels_subset_micro", [GOLD, PRED], {"average": "micro", "labels": ["pos", "neg"]}),
    ("labels_subset_weighted", [GOLD, PRED], {"average": "weighted", "labels": ["pos", "neg"]}),
    ("gold_outside_labels_makes_false_positive", [["a", "c", "c"], ["a", "a", "c"]], {"labels": ["a"]}),
    ("absent_class_weighted_has_no_weight", [["pos", "neg", "pos"], ["pos", "neg", "neg"]],
     {"average": "weighted", "labels": ["pos", "neg", "neu"]}),
    ("absent_class_micro_unchanged", [["pos", "neg", "pos"], ["pos", "neg", "neg"]],
     {"average": "micro", "labels": ["pos", "neg", "neu"]}),
    ("absent_classes_in_label_list", [["cat", "dog", "dog", "cat"], ["cat", "dog", "cat", "cat"]],
     {"labels": ["bird", "cat", "dog", "fish"]}),
    ("weighted_no_gold_support", [["x", "y"], ["a", "a"]], {"average": "weighted", "labels": ["a"]}),
    ("all_wrong_macro", [["a", "b", "a"], ["b", "a", "b"]], {}),
    ("all_wrong_micro", [["a", "b", "a"], ["b", "a", "b"]], {"average": "micro"}),
    ("all_right_weighted", [["a", "b", "c", "c"], ["a", "b", "c", "c"]], {"average": "weighted"}),
    ("single_class_all_right", [["only", "only"], ["only", "only"]], {}),
    ("predictions_all_outside", [["a", "b", "b"], ["x", "y", "z"]], {"average": "micro"}),
    ("union_would_differ_weighted", [["a", "b", "b", "a"], ["a", "x", "b", "y"]], {"average": "weighted"}),
    ("case_sensitive_labels", [["Positive", "negative"], ["positive", "negative"]], {}),
    ("unicode_labels", [["\u00e9t\u00e9", "\u51ac", "\U0001f600", "\u00e9t\u00e9"],
                        ["\u00e9t\u00e9", "\u51ac", "\u00e9t\u00e9", "ete\u0301"]], {}),
    ("micro_equals_accuracy_when_labels_cover_all", [["a", "b", "c", "a", "b"], ["a", "c", "c", "b", "b"]],
     {"average": "micro", "labels": ["c", "b", "a"]}),
    ("macro_versus_mean_precision_recall", [["a", "a", "a", "b"], ["a", "b", "b", "b"]], {}),
]

LABEL_POOLS = [
    ["pos", "neg", "neu"],
    ["yes", "no"],
    ["cat", "dog", "bird", "fish", "Cat"],
    ["\u00e9t\u00e9", "\u51ac", "\U0001f600", "a b", ""],
]


def random_case(rng):
    pool = rng.choice(LABEL_POOLS)
    extra = ["other", "n/a", "POS"]
    size = rng.choice([0, 1, 2, rng.randint(3, 15), rng.randint(10, 60)])
    y_true = [rng.choice(pool) for _ in range(size)]
    y_pred = []
    for truth in y_true:
        roll = rng.random()
        if roll < 0.55:
            y_pred.append(truth)
        elif roll < 0.9:
            y_pred.append(rng.choice(pool))
        else:
            y_pred.append(rng.choice(extra))
    kwargs = {}
    roll = rng.random()
    if roll < 0.3:
        labels = rng.sample(pool, rng.randint(1, len(pool)))
        if rng.random() < 0.3:
            labels.append(rng.choice(extra))
        kwargs["labels"] = labels
    kwargs["average"] = rng.choice(["macro", "micro", "weighted"])
    return [y_true, y_pred], kwargs


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    inputs = []
    for _ in range(count):
        args, kwargs = random_case(rng)
        roll = rng.random()
        if roll < 0.03:
            args[1] = args[1][:-1] if args[1] else ["x"]
        elif roll < 0.06:
            kwargs["average"] = rng.choice(["binary", "Macro", ""])
        elif roll < 0.2:
            del kwargs["average"]
        if "labels" in kwargs and rng.random() < 0.2:
            kwargs["labels"] = kwargs["labels"] + [rng.choice(kwargs["labels"])]
        inputs.append((args, kwargs))
    return inputs


def main():
    classification_f1 = load_reference(FOLDER).classification_f1
    rng = random.Random(SEED)
    cases = list(EDGE_CASES)
    for i in range(27):
        args, kwargs = random_case(rng)
        cases.append((f"random_{kwargs['average']}_{i:02d}", args, kwargs))
    pool = ["c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9"]
    y_true = [rng.choice(pool) for _ in range(1500)]
    y_pred = [t if rng.random() < 0.6 else rng.choice(pool + ["c10"]) for t in y_true]
    for average in ("macro", "micro", "weighted"):
        cases.append((f"long_{average}", [y_true, y_pred], {"average": average}))

    write_hidden(FOLDER, cases, classification_f1, raises=ValueError,
                 check=lambda value: type(value) is float and math.isfinite(value) and 0.0 <= value <= 1.0)


if __name__ == "__main__":
    main()
