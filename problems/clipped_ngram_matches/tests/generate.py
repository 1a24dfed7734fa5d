"""Rebuild tests/hidden.json for clipped_ngram_matches deterministically.

Run from anywhere: python problems/clipped_ngram_matches/tests/generate.py
Expected values come from reference.py in the problem folder.
"""

import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 5150


SENT_REF = ["the", "cat", "sat", "on", "the", "mat"]
SENT_CAND = ["the", "cat", "the", "cat", "on", "the", "mat"]

EDGE_CASES = [
    ("both_empty_n1", [], [], 1),
    ("empty_candidate", ["a", "b"], [], 1),
    ("empty_reference", [], ["a", "b"], 1),
    ("empty_reference_bigrams", [], ["a", "b"], 2),
    ("n_longer_than_reference", ["a", "b"], ["a", "b", "c"], 3),
    ("n_equals_both_lengths", ["a", "b", "c"], ["a", "b", "c"], 3),
    ("n_equals_lengths_differ", ["a", "b", "c"], ["a", "b", "d"], 3),
    ("last_ngram_counts", ["x", "y", "z"], ["q", "y", "z"], 2),
    ("first_ngram_counts", ["x", "y", "z"], ["x", "y", "q"], 2),
    ("single_tokens_n1", ["a"], ["a"], 1),
    ("single_tokens_n2", ["a"], ["a"], 2),
    ("negative_n", ["a", "b"], ["a", "b"], -1),
    ("zero_n_empty_lists", [], [], 0),
    ("clip_by_reference_count", ["a", "a", "b"], ["a", "a", "a", "a", "b", "b"], 1),
    ("clip_by_candidate_count", ["a", "a", "a", "a"], ["a", "b"], 1),
    ("repeated_bigram_clipped", SENT_REF, SENT_CAND, 2),
    ("repeated_unigram_clipped", SENT_REF, SENT_CAND, 1),
    ("trigram_match", SENT_REF, SENT_CAND, 3),
    ("order_matters_bigrams", ["a", "b"], ["b", "a"], 2),
    ("order_ignored_unigrams", ["a", "b"], ["b", "a"], 1),
    ("shared_set_but_counts_differ", ["a", "b", "a", "b"], ["a", "b", "a", "b", "a", "b"], 2),
    ("joined_collision_trigram", ["a b", "c", "d"], ["a", "b c", "d"], 3),
    ("joined_collision_unigram_space", ["a", "b"], ["a b"], 1),
    ("joined_collision_bigram", ["x", "a b", "c"], ["x", "a", "b c"], 2),
    ("empty_string_tokens", ["", "", "x"], ["", "", "", "x"], 2),
    ("whitespace_tokens", [" ", "a"], [" ", " ", "a"], 2),
    ("case_sensitive", ["The", "Cat"], ["the", "cat"], 1),
    ("nfc_vs_nfd", ["caf\u00e9", "ol\u00e9"], ["cafe\u0301", "ol\u00e9"], 1),
    ("emoji_tokens", ["\U0001f600", "\U0001f44d", "\U0001f600"], ["\U0001f600", "\U0001f600"], 1),
    ("large_n", ["a"] * 10, ["a"] * 10, 10),
    ("n_far_beyond_lengths", ["a", "b"], ["a", "b"], 1000),
]

POOLS = [
    ["a", "b"],
    ["a", "b", "c", "d"],
    ["the", "The", "cat", "sat", "on", "mat", ".", ",", "mat."],
    ["caf\u00e9", "cafe\u0301", "\u6771\u4eac", "\U0001f600", "\u00df", "ss", "", " ", "a b", "a", "b"],
]


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    inputs = []
    for _ in range(count):
        pool = rng.choice(POOLS)
        reference = [rng.choice(pool) for _ in range(rng.choice([0, 1, 2, 3, 5, 8, 20]))]
        candidate = []
        for _ in range(rng.choice([0, 1, 2, 3, 5, 12, 30])):
            if reference and rng.random() < 0.5:
                start = rng.randrange(len(reference))
                candidate.extend(reference[start:start + rng.randint(1, 4)])
            else:
                candidate.append(rng.choice(pool))
        n = rng.choice([-1, 0, 1, 1, 2, 2, 3, 4, 6])
        inputs.append(([reference, candidate, n], {}))
    return inputs


def main():
    clipped_ngram_matches = load_reference(FOLDER).clipped_ngram_matches
    rng = random.Random(SEED)
    cases = list(EDGE_CASES)
    for i in range(28):
        pool = POOLS[i % len(POOLS)]
        reference = [rng.choice(pool) for _ in range(rng.choice([0, 1, 3, 8, 20, 40]))]
        candidate = []
        for _ in range(rng.choice([0, 2, 5, 12, 30])):
            if reference and rng.random() < 0.5:
                start = rng.randrange(len(reference))
                candidate.extend(reference[start:start + rng.randint(1, 4)])
            else:
                candidate.append(rng.choice(pool))
        n = rng.choice([1, 1, 2, 2, 3, 4])
        cases.append((f"random_{i:02d}", reference, candidate, n))
    reference = [rng.choice("abc") for _ in range(1500)]
    candidate = [rng.choice("abcd") for _ in range(1500)]
    cases.append(("long_n4", reference, candidate, 4))
    cases.append(("long_n1", reference, candidate, 1))

    write_hidden(FOLDER, [(name, [reference, candidate, n]) for name, reference, candidate, n in cases],
                 clipped_ngram_matches, raises=ValueError, check=lambda value: type(value) is int)


if __name__ == "__main__":
    main()
