"""Rebuild tests/hidden.json for roc_auc deterministically.

Run from anywhere: python problems/roc_auc/tests/generate.py
Expected values come from reference.py in the problem folder.
"""

import math
import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 2331

EDGE_CASES = [
    ("empty_raises", [], []),
    ("lengths_differ_raises", [1, 0], [0.5]),
    ("no_positive_raises", [0, 0, 0], [0.1, 0.2, 0.3]),
    ("single_item_raises", [1], [0.5]),
    ("outcome_negative_raises", [1, -1, 0], [0.5, 0.5, 0.2]),
    ("bad_outcome_after_valid_raises", [1, 0, 1, 0, 3], [0.1, 0.2, 0.3, 0.4, 0.5]),
    ("one_pair_win", [0, 1], [0.0, 1.0]),
    ("one_pair_loss", [0, 1], [1.0, 0.0]),
    ("one_pair_tie", [1, 0], [0.25, 0.25]),
    ("signed_zero_tie", [1, 0], [-0.0, 0.0]),
    ("signed_zero_tie_reversed", [0, 1, 0], [-0.0, 0.0, -1.0]),
    ("tie_group_in_middle", [0, 1, 0, 1, 1, 0], [0.1, 0.5, 0.5, 0.5, 0.9, 0.95]),
    ("ties_order_matters_for_ordinal", [1, 1, 0, 0, 1], [0.3, 0.3, 0.3, 0.3, 0.1]),
    ("negative_first_in_tie", [0, 1, 0, 1], [2.0, 2.0, 2.0, 2.0]),
    ("positive_first_in_tie", [1, 0, 1, 0], [2.0, 2.0, 2.0, 2.0]),
    ("unsorted_input", [1, 0, 1, 0, 0, 1], [0.7, 0.9, 0.1, 0.3, 0.2, 0.8]),
    ("large_and_negative_scores", [1, 0, 1, 0], [1e300, -1e300, -5.0, 3.5]),
    ("one_positive_many_negatives", [0] * 9 + [1], [i / 10 for i in range(10)]),
    ("one_negative_many_positives", [1] * 9 + [0], [0.5] * 9 + [0.6]),
    ("integer_scores", [1, 0, 1, 0], [3, 1, 2, 2]),
    ("long_list", [(i * 7) % 3 % 2 for i in range(2000)], [float((i * 13) % 101) for i in range(2000)]),
    ("very_long_list", [i % 2 for i in range(20000)], [((i * 7919) % 10007) / 10007 for i in range(20000)]),
]


def _case(rng):
    n = rng.choice([2, 3, rng.randint(2, 12), rng.randint(10, 300)])
    rate = rng.choice([0.1, 0.5, 0.9])
    outcomes = [int(rng.random() < rate) for _ in range(n)]
    if len(set(outcomes)) == 1:
        outcomes[rng.randrange(n)] = 1 - outcomes[0]
    levels = rng.choice([2, 3, 5, 1000])  # few levels: many ties
    skill = rng.choice([0.0, 0.3, 1.0])
    scores = [float(round(rng.random() * levels) + skill * o * rng.random() * levels) / levels
              for o in outcomes]
    if rng.random() < 0.2:
        scores = [rng.choice([-1.0, 0.0, -0.0, 1.0, s]) for s in scores]
    return outcomes, scores


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    inputs = []
    for _ in range(count):
        outcomes, scores = _case(rng)
        roll = rng.random()
        if roll < 0.05:
            outcomes[rng.randrange(len(outcomes))] = rng.choice([2, -1])
        elif roll < 0.1:
            outcomes = [outcomes[0]] * len(outcomes)
        elif roll < 0.12:
            scores = scores[1:]
        inputs.append(([outcomes, scores], {}))
    return inputs


def main():
    roc_auc = load_reference(FOLDER).roc_auc
    rng = random.Random(SEED)
    cases = list(EDGE_CASES)
    for i in range(40):
        outcomes, scores = _case(rng)
        cases.append((f"random_{i:02d}", outcomes, scores))
    write_hidden(FOLDER, [(name, [o, s]) for name, o, s in cases], roc_auc, raises=ValueError,
                 check=lambda v: type(v) is float and math.isfinite(v) and 0 <= v <= 1)


if __name__ == "__main__":
    main()
