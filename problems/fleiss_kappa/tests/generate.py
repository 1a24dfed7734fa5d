"""Rebuild tests/hidden.json for fleiss_kappa deterministically.

Run from anywhere: python problems/fleiss_kappa/tests/generate.py
Expected values come from reference.py in the problem folder.
"""

import math
import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 2333

EDGE_CASES = [
    ("no_items_raises", []),
    ("ragged_shorter_raises", [[2, 1], [3]]),
    ("ragged_longer_raises", [[2, 1], [1, 1, 1]]),
    ("ragged_later_row_raises", [[1, 1], [2, 0], [1, 0, 1]]),
    ("negative_count_raises", [[3, -1], [1, 1]]),
    ("negative_in_later_row_raises", [[1, 1], [1, 1], [-1, 3]]),
    ("unequal_later_total_raises", [[1, 2], [2, 1], [2, 2]]),
    ("single_rater_raises", [[1, 0, 0], [0, 1, 0], [0, 0, 1]]),
    ("zero_raters_raises", [[0, 0], [0, 0]]),
    ("no_categories_raises", [[], []]),
    ("single_category_raises", [[4], [4], [4]]),
    ("all_in_last_category_raises", [[0, 0, 5], [0, 0, 5]]),
    ("single_item_unanimous_raises", [[0, 3]]),
    ("two_raters_perfect", [[2, 0], [0, 2], [2, 0]]),
    ("two_raters_mixed", [[2, 0], [1, 1], [0, 2], [1, 1]]),
    ("unused_category", [[3, 0, 0], [1, 2, 0], [0, 3, 0]]),
    ("single_item_three_categories", [[1, 1, 1]]),
    ("worse_than_chance_three", [[1, 1, 1], [1, 1, 1], [2, 1, 0]]),
    ("skewed_majority", [[5, 0], [5, 0], [5, 0], [4, 1], [5, 0], [3, 2]]),
    ("many_raters", [[20, 5, 0, 5], [0, 30, 0, 0], [10, 10, 10, 0], [1, 2, 3, 24]]),
    ("wikipedia_example", [[0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0],
                           [2, 2, 8, 1, 1], [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2],
                           [6, 5, 2, 1, 0], [0, 2, 2, 3, 7]]),
    ("many_items", [[3, 1, 0] if i % 3 else [0, 2, 2] for i in range(300)]),
]


def _table(rng):
    items = rng.choice([1, 2, 3, rng.randint(2, 12), rng.randint(10, 80)])
    categories = rng.choice([2, 2, 3, rng.randint(2, 7)])
    raters = rng.choice([2, 2, 3, 5, rng.randint(2, 12)])
    weights = [rng.choice([0, 1, 1, 3, 10]) for _ in range(categories)]
    weights[0] = weights[0] or 1
    weights[-1] = weights[-1] or 1
    agreement = rng.choice([0.0, 0.5, 0.8, 1.0])
    table = []
    for _ in range(items):
        favourite = rng.choices(range(categories), weights)[0]
        row = [0] * categories
        for _ in range(raters):
            row[favourite if rng.random() < agreement else rng.choices(range(categories), weights)[0]] += 1
        table.append(row)
    return table


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    inputs = []
    for _ in range(count):
        table = _table(rng)
        roll = rng.random()
        row = table[rng.randrange(len(table))]
        if roll < 0.02:
            row.append(0)
        elif roll < 0.04:
            row[rng.randrange(len(row))] += 1
        elif roll < 0.06 and len(row) > 1:
            row[1] += row[0] + 1  # the row sum stays the same
            row[0] = -1
        elif roll < 0.08:
            table = [[1 if j == i % len(row) else 0 for j in range(len(row))] for i in range(len(table))]
        inputs.append(([table], {}))
    return inputs


def main():
    fleiss_kappa = load_reference(FOLDER).fleiss_kappa
    rng = random.Random(SEED)
    cases = list(EDGE_CASES)
    for i in range(40):
        cases.append((f"random_{i:02d}", _table(rng)))
    write_hidden(FOLDER, [(name, [table]) for name, table in cases], fleiss_kappa, raises=ValueError,
                 check=lambda v: type(v) is float and math.isfinite(v) and -1 - 1e-12 <= v <= 1 + 1e-12)


if __name__ == "__main__":
    main()
