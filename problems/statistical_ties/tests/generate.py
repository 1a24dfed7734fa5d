"""Rebuild tests/hidden.json for statistical_ties deterministically.

Run from anywhere: python problems/statistical_ties/tests/generate.py
Expected values come from reference.py in the problem folder.
"""

import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 404


EDGE_CASES = [
    ("empty_results", {}),
    ("single_model_zero_of_one", {"solo": [0, 1]}),
    ("two_identical_models", {"twin-b": [30, 40], "twin-a": [30, 40]}),
    ("leader_by_accuracy_not_count", {"big": [60, 100], "small": [9, 10]}),
    ("leader_by_accuracy_not_count_separated", {"big": [50, 100], "small": [10, 10]}),
    ("leader_separated_from_all", {"top": [195, 200], "mid": [150, 200], "low": [100, 200]}),
    ("all_perfect", {"p1": [15, 15], "p2": [15, 15], "p3": [30, 30]}),
    ("all_zero", {"z1": [0, 15], "z2": [0, 30], "z3": [0, 5]}),
    ("equal_accuracy_three_sizes", {"s": [4, 5], "m": [8, 10], "l": [40, 50], "x": [10, 50]}),
    ("equal_accuracy_name_order_case", {"beta": [9, 12], "Alpha": [9, 12], "gamma": [3, 12]}),
    ("leader_listed_last", {"c": [10, 30], "b": [20, 30], "a": [29, 30]}),
    ("one_answer_each", {"a": [1, 1], "b": [0, 1], "c": [1, 1]}),
    ("large_n_close_accuracies", {"v1": [9000, 10000], "v2": [8950, 10000], "v3": [8800, 10000]}),
    ("unicode_names", {"mod\u00e8le-\u00e9t\u00e9": [40, 50], "\u6a21\u578b": [45, 50],
                       "model-\U0001f680": [44, 50], "Mod\u00e8le": [20, 50]}),
    ("names_differing_in_case", {"Model": [40, 50], "model": [41, 50], "MODEL": [30, 50]}),
    ("many_models_small_n", {f"m{k:02d}": [k % 16, 15] for k in range(20)}),
]

NAME_PARTS = ["gpt", "claude", "gemini", "llama", "mistral", "qwen", "Phi", "\u00e9tude", "\u6a21\u578b",
              "zeta", "Alpha", "beta"]


def random_results(rng):
    count = rng.choice([2, 2, 3, 4, 5, 8])
    shared_n = rng.random() < 0.5
    n_common = rng.randint(10, 60)
    results = {}
    while len(results) < count:
        name = rng.choice(NAME_PARTS) + rng.choice(["", "-mini", "-large", "-2", " v1", "_x"])
        n = n_common if shared_n else rng.choice([rng.randint(1, 20), rng.randint(20, 200)])
        correct = rng.choice([n, 0, rng.randint(0, n), rng.randint(n // 2, n), rng.randint(n // 2, n)])
        results[name] = [correct, n]
    return results


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    inputs = []
    for _ in range(count):
        roll = rng.random()
        if roll < 0.05:
            results = dict(list(random_results(rng).items())[: rng.randint(0, 1)])
        else:
            results = random_results(rng)
        if roll > 0.8:  # a twin of some model, or the same accuracy over a different n
            name, (correct, n) = rng.choice(list(results.items()))
            k = rng.choice([1, 2, 3])
            results[name + rng.choice(["-twin", "-big", "A", "a"])] = [correct * k, n * k]
        inputs.append(([results], {}))
    return inputs


def as_called(args, kwargs):
    """JSON has no tuples: the judge passes each system's scores as the declared tuple."""
    [results] = args
    return [{key: tuple(value) for key, value in results.items()}], kwargs


def main():
    statistical_ties = load_reference(FOLDER).statistical_ties
    rng = random.Random(SEED)
    cases = list(EDGE_CASES)
    for i in range(28):
        cases.append((f"random_{i:02d}", random_results(rng)))

    write_hidden(FOLDER, [(name, [results]) for name, results in cases], statistical_ties, convert=as_called,
                 check=lambda value: type(value) is list and value == sorted(value))


if __name__ == "__main__":
    main()
