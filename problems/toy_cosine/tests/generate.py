"""Rebuild tests/hidden.json for toy_cosine deterministically.

Run from anywhere: python problems/toy_cosine/tests/generate.py
Expected values come from reference.py in the problem folder.
"""

import math
import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 3003


EDGE_CASES = [
    ("both_empty", "", ""),
    ("whitespace_only", " \t\n\u00a0", "cat"),
    ("only_punctuation", "?!...", "cat"),
    ("only_articles_any_case", "A an THE The", "mat"),
    ("and_is_not_an_article", "and", "cat"),
    ("both_undefined", "the dog", "a bird"),
    ("reference_undefined", "cat sat", "nothing here"),
    ("unicode_ellipsis_not_deleted", "cat\u2026", "cat"),
    ("curly_apostrophe_not_deleted", "cat\u2019s mat", "mat"),
    ("ascii_apostrophe_deleted", "rug's", "rug"),
    ("fullwidth_letters_unknown", "\uff23\uff21\uff34 sat", "cat sat"),
    ("plural_is_unknown", "cats sat", "cat sat"),
    ("uppercase_with_period", "CAT. SAT! MAT?", "cat sat mat"),
    ("hyphen_joins_article", "the-cat sat", "cat sat"),
    ("dot_joins_article", "a.cat sat", "sat"),
    ("tabs_newlines_nbsp_split", "cat\tsat\nmat\u00a0rug", "feline rested rug mat"),
    ("three_sit_words", "sat sit rested", "sit"),
    ("mat_and_rug_diagonal", "MAT RUG", "cat"),
    ("many_zero_words_keep_direction", "cat " + "word " * 50, "cat"),
    ("orthogonal_with_noise", "the feline and the dog", "she rested quietly"),
    ("dotted_i_lowercase", "\u0130 sat", "sat"),
    ("digits_are_tokens", "cat 42 sat", "cat sat"),
    ("punctuation_inside_words", "c.a.t s,a,t", "cat sat"),
    ("underscore_deleted", "mat_ rug_", "mat"),
]

WORDS = ["cat", "feline", "sat", "sit", "rested", "mat", "rug", "cat", "sat", "mat", "the", "a", "an", "on", "not",
         "did", "dog", "and", "CAT", "The", "Mat", "RUG", "cats", "sitting", "caf\u00e9", "\u732b",
         "\U0001f408", "42"]
DECORATIONS = ["", "", "", "", "", ".", ",", "!", "?", "-", "\"", "'s", "\u2026", "\u201d"]


def random_text(rng):
    if rng.random() < 0.05:
        return ""
    length = rng.choice([1, 3, rng.randint(3, 10), rng.randint(5, 20), rng.randint(5, 20)])
    parts = []
    for _ in range(length):
        word = rng.choice(WORDS) + rng.choice(DECORATIONS)
        if rng.random() < 0.1:
            word = rng.choice(["(", "\"", "\u00ab"]) + word
        parts.append(word)
    return rng.choice([" ", " ", "  ", "\t", "\n"]).join(parts)


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    return [([random_text(rng), random_text(rng)], {}) for _ in range(count)]


def main():
    toy_cosine = load_reference(FOLDER).toy_cosine
    rng = random.Random(SEED)
    cases = list(EDGE_CASES)
    for i in range(28):
        cases.append((f"random_{i:02d}", random_text(rng), random_text(rng)))
    long_candidate = " ".join(rng.choice(WORDS) for _ in range(2000))
    long_reference = " ".join(rng.choice(WORDS) for _ in range(2000))
    cases.append(("long_texts", long_candidate, long_reference))

    write_hidden(FOLDER, [(name, [candidate, reference]) for name, candidate, reference in cases], toy_cosine,
                 check=lambda value: value is None or (type(value) is float and math.isfinite(value)
                                                       and -1e-12 <= value <= 1 + 1e-12))


if __name__ == "__main__":
    main()
