"""Rebuild tests/hidden.json for lcs_length deterministically.

Run from anywhere: python problems/lcs_length/tests/generate.py
Expected values come from reference.py in the problem folder. The largest tests are 2,000 x
2,000 tokens; an exponential solution times out on them (and on the medium ones).
"""

import copy
import importlib.util
import json
import random
from pathlib import Path

TESTS = Path(__file__).resolve().parent
FOLDER = TESTS.parent
SEED = 1970


def load_reference():
    spec = importlib.util.spec_from_file_location("lcs_length_reference", FOLDER / "reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.lcs_length


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
    lcs_length = load_reference()
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

    public_names = {t["name"] for t in json.loads((TESTS / "public.json").read_text("utf-8"))}
    tests = []
    for name, a, b in cases:
        assert name not in public_names, name
        args = [a, b]
        before = copy.deepcopy(args)
        value = lcs_length(*args)
        assert args == before, f"reference mutated its arguments in {name}"
        assert type(value) is int, (name, value)
        tests.append({"name": name, "args": args, "expected": value})
    names = [t["name"] for t in tests]
    assert len(names) == len(set(names))
    text = json.dumps(tests, indent=1, ensure_ascii=False) + "\n"
    (TESTS / "hidden.json").write_text(text, encoding="utf-8")
    print(f"wrote {len(tests)} tests, {len(text.encode('utf-8'))} bytes")


if __name__ == "__main__":
    main()
