"""Rebuild tests/hidden.json for spearman_rho deterministically.

Run from anywhere: python problems/spearman_rho/tests/generate.py
Expected values come from reference.py in the problem folder.
"""

import math
import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 2318

EDGE_CASES = [
    ("one_pair_raises", [1], [2]),
    ("empty_raises", [], []),
    ("other_length_raises", [1, 2, 3], [1, 2]),
    ("two_pairs_agree", [1, 2], [3, 4]),
    ("two_pairs_disagree", [1, 2], [4, 3]),
    ("both_constant", [2, 2], [5, 5]),
    ("y_constant", [1, 2, 3], [7, 7, 7]),
    ("all_tied_but_one", [1, 1, 1, 2], [1, 2, 3, 4]),
    ("outlier_does_not_matter", [1, 2, 3, 4, 1000], [1, 2, 3, 4, 5]),
    ("negative_and_float", [-1.5, 0.0, 2.25, -3.0], [0.1, 0.2, 0.3, 0.0]),
    ("many_ties", [1, 1, 2, 2, 3, 3], [3, 3, 2, 2, 1, 1]),
    ("ties_shortcut_differs", [1, 1, 1, 2, 3], [1, 2, 3, 3, 3]),
    ("ordinal_differs", [1, 2, 2, 3], [1, 3, 2, 4]),
    ("int_and_float_equal", [1, 1.0, 2], [1, 2, 3]),
    ("long_monotone", list(range(40)), [v * v for v in range(40)]),
]


def _pair(rng):
    n = rng.choice([2, 3, 4, rng.randint(2, 12), rng.randint(5, 40)])
    pool = rng.choice([3, 5, 10, 1000])
    x = [rng.randint(0, pool) for _ in range(n)]
    if rng.random() < 0.5:
        y = [v + rng.randint(-pool // 3 - 1, pool // 3 + 1) for v in x]
    else:
        y = [rng.randint(0, pool) for _ in range(n)]
    if rng.random() < 0.3:
        x = [v / 4 for v in x]
    return x, y


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    return [(list(_pair(rng)), {}) for _ in range(count)]


def main():
    spearman_rho = load_reference(FOLDER).spearman_rho
    rng = random.Random(SEED)
    cases = list(EDGE_CASES)
    for i in range(40):
        x, y = _pair(rng)
        cases.append((f"random_{i:02d}", x, y))
    write_hidden(FOLDER, [(name, [x, y]) for name, x, y in cases], spearman_rho, raises=ValueError,
                 check=lambda v: v is None or (type(v) is float and math.isfinite(v) and -1 - 1e-12 <= v <= 1 + 1e-12))


if __name__ == "__main__":
    main()
