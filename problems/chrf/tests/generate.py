"""Rebuild tests/hidden.json for chrf deterministically.

Run from anywhere: python problems/chrf/tests/generate.py
Expected values come from reference.py in the problem folder.
"""

import math
import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 2016


EDGE_CASES = [
    ("empty_hypothesis", "", ["the refund"]),
    ("empty_reference", "the refund", [""]),
    ("whitespace_only_both", " \t\n", ["\u00a0 \u3000"]),
    ("whitespace_only_hypothesis", "   ", ["abc"]),
    ("no_match_at_any_order", "ab", ["cd"]),
    ("usable_order_without_match_counts", "abx", ["aby"]),
    ("case_counts", "CAT", ["cat"]),
    ("repeated_characters_clipped", "aaaa", ["aa"]),
    ("repeated_characters_short_hypothesis", "aa", ["aaaaaaaa"]),
    ("exactly_six_characters", "abcdef", ["abcdef"]),
    ("seven_versus_six", "abcdefg", ["abcdef"]),
    ("one_character_each", "a", ["a"]),
    ("one_character_against_long", "a", ["abcdefghij"]),
    ("nbsp_and_tabs_removed", "re\u00a0fund\tstatus", ["refund status"]),
    ("zero_width_space_kept", "re\u200bfund", ["refund"]),
    ("emoji_zwj_sequence", "\U0001f469\u200d\U0001f4bb ok", ["\U0001f469\U0001f4bb ok"]),
    ("cjk_text", "\u6771\u4eac\u306f\u5927\u304d\u3044", ["\u6771\u4eac\u306f\u5c0f\u3055\u3044"]),
    ("best_reference_listed_last", "the refund was sent",
     ["a totally different sentence", "", "the refund was sent today"]),
    ("pooling_would_differ", "abcd", ["ab", "cd"]),
    ("five_references_with_empty", "status page down",
     ["", "the status page is down", "page down", "STATUS PAGE DOWN", "statuspagedown!"]),
    ("punctuation_counts", "refund-status!", ["refund status"]),
    ("now_here_nowhere", "now here", ["nowhere"]),
    ("hypothesis_much_longer", "the refund was sent on the third of May after a long wait", ["refund sent"]),
]

POOLS = {
    "words": ["the", "refund", "status", "page", "is", "down", "sent", "cat", "cats", "The", "CAT"],
    "punct": ["the", "cat", ".", ",", "!", "?", "-", "_", "'", "\u2026", "\u201c", "\u201d"],
    "unicode": ["caf\u00e9", "cafe\u0301", "na\u00efve", "\u00df", "ss", "\u0130", "\u03a9\u03bc",
                "\u6771\u4eac", "\U0001f44d", "\u043c\u0438\u0440", "\u05e9\u05dc\u05d5\u05dd",
                "\U0001f469\u200d\U0001f4bb"],
    "tiny": ["a", "b", "ab", "ba", "aa"],
}
SEPARATORS = [" ", " ", "", "\t", "\u00a0", "\n", "  "]


def random_text(rng, pool, length):
    return "".join(rng.choice(pool) + rng.choice(SEPARATORS) for _ in range(length)).rstrip(" ")


def mutate(rng, text):
    chars = list(text)
    for _ in range(rng.randint(0, max(1, len(chars) // 4))):
        if not chars:
            break
        i = rng.randrange(len(chars))
        roll = rng.random()
        if roll < 0.4:
            del chars[i]
        elif roll < 0.7:
            chars[i] = rng.choice("aeioust .")
        else:
            chars.insert(i, rng.choice("xyz "))
    return "".join(chars)


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    pool_names = sorted(POOLS)
    inputs = []
    for _ in range(count):
        pool = POOLS[rng.choice(pool_names)]
        references = [random_text(rng, pool, rng.choice([0, 1, 2, 3, rng.randint(2, 12), rng.randint(4, 20)]))
                      for _ in range(rng.choice([1, 1, 2, 3, 5]))]
        source = rng.choice(references)
        hypothesis = mutate(rng, source) if rng.random() < 0.8 else random_text(rng, pool, rng.randint(0, 8))
        inputs.append(([hypothesis, references], {}))
    return inputs


def main():
    chrf = load_reference(FOLDER).chrf
    rng = random.Random(SEED)
    cases = list(EDGE_CASES)
    pool_names = sorted(POOLS)
    for i in range(28):
        pool = POOLS[pool_names[i % len(pool_names)]]
        references = [random_text(rng, pool, rng.choice([0, 1, 3, rng.randint(2, 12), rng.randint(2, 12), rng.randint(4, 20)]))
                      for _ in range(rng.choice([1, 1, 2, 3, 5]))]
        source = rng.choice(references)
        hypothesis = mutate(rng, source) if rng.random() < 0.8 else random_text(rng, pool, rng.randint(0, 8))
        cases.append((f"random_{pool_names[i % len(pool_names)]}_{i:02d}", hypothesis, references))
    long_reference = random_text(rng, POOLS["words"] + POOLS["unicode"], 500)
    cases.append(("long_texts", mutate(rng, long_reference), [long_reference, mutate(rng, long_reference)]))

    write_hidden(FOLDER, [(name, [hypothesis, references]) for name, hypothesis, references in cases], chrf,
                 check=lambda value: type(value) is float and math.isfinite(value)
                 and 0.0 <= value <= 1.0 + 1e-12)


if __name__ == "__main__":
    main()
