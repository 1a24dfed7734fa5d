"""Rebuild tests/hidden.json for lcs_length deterministically.

Run from anywhere: python problems/lcs_length/tests/generate.py
Expected values come from reference.py in the problem folder. The largest tests are 2,000 x
2,000 tokens; an exponential solution times out on them (and on the medium ones).
"""

import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 1970


EDGE_CASES = [
    ("both_empty", [], []),
    ("second_empty", ["a", "b"], []),
    ("single_equal", ["a"], ["a"]),
    ("single_different", ["a"], ["b"]),
    ("no_common_tokens", ["a", "b", "c"], ["d", "e", "f"]),
    ("identical", ["a", "b", "c", "d"], ["a", "b", "c", "d"]),
    ("reversed", ["a", "b", "c", "d", "e"], ["e", "d", "c", "b", "a"]),
    ("subsequence_of_other", ["b", "d"], ["a", "b", "c", "d", "e"]),
    ("repeats_limited", ["a", "a", "a"], ["a", "a"]),
    ("repeats_interleaved", ["a", "b", "a", "b", "a"], ["b", "a", "b", "a", "b"]),
    ("greedy_trap_reversed_roles", ["a", "b", "c", "x"], ["x", "a", "b", "c"]),
    ("greedy_trap_late_match", ["q", "a", "b", "c", "d"], ["a", "b", "c", "d", "q"]),
    ("substring_shorter_than_subsequence", ["a", "x", "b", "y", "c", "z", "d"],
     ["a", "b", "c", "d"]),
    ("bag_overlap_larger_than_lcs", ["a", "b", "c", "a", "b", "c"], ["c", "b", "a", "c", "b", "a"]),
    ("case_differs", ["Hello", "World"], ["hello", "world"]),
    ("nfc_vs_nfd", ["caf\u00e9", "au", "lait"], ["cafe\u0301", "au", "lait"]),
    ("empty_string_tokens", ["", "a", ""], ["", "", "a"]),
    ("whitespace_tokens", [" ", "a", "\t"], ["\t", " ", "a"]),
    ("punctuation_tokens", [".", ",", "!", "."], [",", ".", "."]),
    ("unicode_tokens", ["\u6771\u4eac", "\U0001f600", "\u043c\u0438\u0440", "\u00df"],
     ["\U0001f600", "\u00df", "\u6771\u4eac", "\u043c\u0438\u0440"]),
    ("tokens_with_spaces", ["a b", "c"], ["a", "b c"]),
    ("long_vs_empty", ["t"] * 2000, []),
]


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    pools = [["a", "b"], ["a", "b", "c"], ["a", "b", "c", "d", "e", "f"],
             ["the", "The", "cat", "sat", "on", "mat", ".", "caf\u00e9", "cafe\u0301", ""]]
    inputs = []
    for _ in range(count):
        pool = rng.choice(pools)
        sizes = [rng.choice([0, 1, 2, rng.randint(0, 9), rng.randint(0, 9), rng.randint(5, 40)]) for _ in "ab"]
        a = [rng.choice(pool) for _ in range(sizes[0])]
        b = [rng.choice(pool) for _ in range(sizes[1])]
        inputs.append(([a, b], {}))
    return inputs


def main():
    lcs_length = load_reference(FOLDER).lcs_length
    rng = random.Random(SEED)
    cases = list(EDGE_CASES)
    # Small random cases: lists of up to 9 tokens.
    pools = [["a", "b"], ["a", "b", "c"], ["a", "b", "c", "d", "e", "f"],
             ["the", "The", "cat", "sat", "on", "mat", ".", "caf\u00e9", "cafe\u0301", ""]]
    for i in range(20):
        pool = pools[i % len(pools)]
        a = [rng.choice(pool) for _ in range(rng.randint(0, 9))]
        b = [rng.choice(pool) for _ in range(rng.randint(0, 9))]
        cases.append((f"random_small_{i:02d}", a, b))
    # Medium random cases.
    for i, (n, m, k) in enumerate([(120, 150, 3), (300, 250, 20), (60, 400, 8)]):
        a = [chr(97 + rng.randrange(k)) if k <= 26 else f"w{rng.randrange(k)}" for _ in range(n)]
        b = [chr(97 + rng.randrange(k)) if k <= 26 else f"w{rng.randrange(k)}" for _ in range(m)]
        cases.append((f"random_medium_{i}", a, b))
    # Large cases: 2,000 x 2,000 tokens.
    letters = "abcd"
    a = [rng.choice(letters) for _ in range(2000)]
    b = [rng.choice(letters) for _ in range(2000)]
    cases.append(("large_four_letters", a, b))
    vocab = [f"w{k}" for k in range(100)]
    a = [rng.choice(vocab) for _ in range(2000)]
    b = [rng.choice(vocab) for _ in range(2000)]
    cases.append(("large_hundred_words", a, b))
    a = [rng.choice("abcde") for _ in range(2000)]
    b = [rng.choice("vwxyz") for _ in range(2000)]
    cases.append(("large_disjoint", a, b))
    a = [rng.choice(letters) for _ in range(2000)]
    b = list(a)
    for _ in range(100):
        b[rng.randrange(2000)] = "z"
    cases.append(("large_nearly_identical", a, b))

    write_hidden(FOLDER, [(name, [a, b]) for name, a, b in cases], lcs_length,
                 check=lambda value: type(value) is int)


if __name__ == "__main__":
    main()
