"""Rebuild tests/hidden.json for bleu_2 deterministically.

Run from anywhere: python problems/bleu_2/tests/generate.py
Expected values come from reference.py in the problem folder.
"""

import math
import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 31337


SENT = ["the", "cat", "sat", "on", "the", "mat"]

EDGE_CASES = [
    ("empty_candidate_empty_reference", [], []),
    ("empty_reference_two_tokens", [], ["a", "b"]),
    ("one_token_no_match", ["a"], ["b"]),
    ("one_token_against_longer", ["a", "b", "c"], ["a"]),
    ("two_tokens_identical", ["a", "b"], ["a", "b"]),
    ("two_tokens_one_match", ["a", "b"], ["a", "c"]),
    ("unigrams_match_no_bigram", ["a", "b", "c"], ["c", "b", "a"]),
    ("all_bigrams_match_shorter", SENT, ["sat", "on", "the", "mat"]),
    ("candidate_longer_extra_words", SENT, SENT + ["today", "again"]),
    ("candidate_one_shorter", SENT, SENT[:5]),
    ("bigram_clipping_repeats", SENT, ["the", "cat", "the", "cat", "the", "cat"]),
    ("same_token_runs", ["x"] * 4, ["x"] * 9),
    ("same_token_runs_short", ["x"] * 9, ["x"] * 4),
    ("bigram_match_across_case", ["New", "York"], ["new", "York"]),
    ("joined_bigram_collision", ["a b", "c"], ["a", "b c"]),
    ("joined_bigram_collision_longer", ["x", "a b", "c", "y"], ["x", "a", "b c", "y"]),
    ("joined_bigram_collision_nonzero", ["x", "y", "a b", "c"], ["x", "y", "a", "b c"]),
    ("case_matters_partial", ["The", "Cat", "sat", "down"], ["the", "cat", "sat", "down"]),
    ("empty_string_tokens", ["", "", "a"], ["", "", "a"]),
    ("whitespace_tokens", [" ", "a", " "], [" ", "a", "a"]),
    ("nfc_vs_nfd_bigram", ["caf\u00e9", "au", "lait"], ["cafe\u0301", "au", "lait"]),
    ("cjk_tokens", ["\u6771\u4eac", "\u306f", "\u5927\u304d\u3044"],
     ["\u6771\u4eac", "\u306f", "\u5c0f\u3055\u3044"]),
    ("punctuation_tokens", ["hello", ",", "world", "!"], ["hello", "world", ",", "!"]),
    ("very_short_candidate_penalty", ["a"] * 40, ["a", "a"]),
    ("half_bigrams", ["a", "b", "c", "d", "e"], ["a", "b", "x", "d", "e"]),
]


POOLS = {
    "tiny": ["a", "b", "c"],
    "words": ["the", "The", "cat", "sat", "on", "mat", "a", "dog", "ran", "and", "THE", "Cat"],
    "punct": ["the", "cat", ".", ",", "!", "?", "cat.", "'s", "\u2014", "\u201c", "\u201d", "-"],
    "unicode": ["caf\u00e9", "cafe\u0301", "na\u00efve", "\u00df", "ss", "\u0130", "i", "\u03a9",
                "\u6771\u4eac", "\U0001f44d", "\u00a0", "\u043c\u0438\u0440", "\u05e9\u05dc\u05d5\u05dd"],
    "odd": ["", " ", "\t", "a", "a ", " a", "\n", "\u200b"],
}


def random_case(rng, pool_name):
    pool = POOLS[pool_name]
    r_len = rng.choice([0, 2, rng.randint(3, 12), rng.randint(5, 40), rng.randint(5, 40)])
    c_len = rng.choice([0, 1, rng.randint(2, 12), rng.randint(5, 40), r_len, r_len, r_len,
                        max(2, r_len - rng.randint(1, 4)), max(2, r_len - rng.randint(1, 4))])
    # Copy short spans of the reference so that bigrams match too.
    reference = [rng.choice(pool) for _ in range(r_len)]
    candidate = []
    while len(candidate) < c_len:
        if reference and rng.random() < 0.6:
            start = rng.randrange(len(reference))
            candidate.extend(reference[start:start + rng.randint(1, 5)])
        else:
            candidate.append(rng.choice(pool))
    return reference, candidate[:c_len]


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    pool_names = sorted(POOLS)
    inputs = []
    for _ in range(count):
        reference, candidate = random_case(rng, rng.choice(pool_names))
        inputs.append(([reference, candidate], {}))
    return inputs


def main():
    bleu_2 = load_reference(FOLDER).bleu_2
    rng = random.Random(SEED)
    cases = list(EDGE_CASES)
    pool_names = sorted(POOLS)
    for i in range(36):
        pool_name = pool_names[i % len(pool_names)]
        reference, candidate = random_case(rng, pool_name)
        cases.append((f"random_{pool_name}_{i:02d}", reference, candidate))
    # Two long pairs: a large vocabulary and a small one (many clipped repeats).
    vocab = [f"w{k}" for k in range(300)]
    reference = [rng.choice(vocab) for _ in range(2500)]
    candidate = [rng.choice(vocab) for _ in range(2000)]
    cases.append(("long_large_vocabulary", reference, candidate))
    reference = [rng.choice("abcde") for _ in range(3000)]
    candidate = [rng.choice("abcdef") for _ in range(3100)]
    cases.append(("long_small_vocabulary", reference, candidate))

    write_hidden(FOLDER, [(name, [reference, candidate]) for name, reference, candidate in cases], bleu_2,
                 check=lambda value: type(value) is float and math.isfinite(value))


if __name__ == "__main__":
    main()
