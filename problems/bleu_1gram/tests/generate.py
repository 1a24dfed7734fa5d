"""Rebuild tests/hidden.json for bleu_1gram deterministically.

Run from anywhere: python problems/bleu_1gram/tests/generate.py
Expected values come from reference.py in the problem folder.
"""

import math
import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 20240611


EDGE_CASES = [
    ("empty_candidate_nonempty_reference", ["a", "b", "c"], []),
    ("single_token_no_match", ["a"], ["b"]),
    ("single_token_match", ["a"], ["a"]),
    ("no_overlap_long_candidate", ["x", "y"], ["p", "q", "r", "s"]),
    ("candidate_longer_partial", ["the", "cat"], ["the", "cat", "is", "here", "now"]),
    ("all_repeats_clipped", ["x"] * 5, ["x"] * 10),
    ("repeats_short_candidate", ["x"] * 10, ["x"] * 5),
    ("one_token_against_fifty", ["a"] * 50, ["a"]),
    ("nfc_vs_nfd_differ", ["caf\u00e9", "au", "lait"], ["cafe\u0301", "au", "lait"]),
    ("nfc_matches_nfc", ["caf\u00e9"], ["caf\u00e9"]),
    ("case_only_difference", ["Paris", "is", "big"], ["paris", "IS", "big"]),
    ("trailing_space_token", ["a", "b"], ["a ", "b"]),
    ("empty_string_tokens", ["", "a", ""], ["", "", "", "a"]),
    ("whitespace_tokens", [" ", "\t", "a"], [" ", " ", "a"]),
    ("punctuation_tokens", [",", ".", "!", "?"], [".", ".", ".", "!"]),
    ("numbers_as_text", ["1", "2", "3"], ["1.0", "2", "3"]),
    ("sharp_s_not_ss", ["stra\u00dfe"], ["strasse"]),
    ("emoji_zwj_sequence", ["\U0001f469\u200d\U0001f4bb", "ok"], ["\U0001f469\U0001f4bb", "ok"]),
    ("cjk_tokens", ["\u6771\u4eac", "\u306f", "\u5927\u304d\u3044"], ["\u6771\u4eac", "\u306f", "\u5c0f\u3055\u3044"]),
    ("unclipped_would_exceed_one", ["a", "b"], ["a", "a", "a", "a"]),
    ("candidate_one_shorter", ["a", "b", "c", "d", "e"], ["a", "b", "c", "d"]),
    ("half_match_equal_length", ["w", "x", "y", "z"], ["w", "x", "q", "q"]),
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
    r_len = rng.choice([0, 1, 2, rng.randint(1, 12), rng.randint(5, 40), rng.randint(5, 40)])
    c_len = rng.choice([0, 1, rng.randint(1, 12), rng.randint(5, 40), r_len, r_len,
                        max(1, r_len - rng.randint(1, 4)), max(1, r_len - rng.randint(1, 4))])
    # Bias the candidate toward reference tokens so scores are not all zero.
    reference = [rng.choice(pool) for _ in range(r_len)]
    candidate = []
    for _ in range(c_len):
        if reference and rng.random() < 0.6:
            candidate.append(rng.choice(reference))
        else:
            candidate.append(rng.choice(pool))
    return reference, candidate


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    pool_names = sorted(POOLS)
    inputs = []
    for _ in range(count):
        reference, candidate = random_case(rng, rng.choice(pool_names))
        inputs.append(([reference, candidate], {}))
    return inputs


def main():
    bleu_1gram = load_reference(FOLDER).bleu_1gram
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

    write_hidden(FOLDER, [(name, [reference, candidate]) for name, reference, candidate in cases], bleu_1gram,
                 check=lambda value: type(value) is float and math.isfinite(value))


if __name__ == "__main__":
    main()
