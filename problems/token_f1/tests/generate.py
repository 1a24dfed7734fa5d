"""Rebuild tests/hidden.json for token_f1 deterministically.

Run from anywhere: python problems/token_f1/tests/generate.py
Expected values come from reference.py in the problem folder.
"""

import math
import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 7310


EDGE_CASES = [
    ("empty_reference_string", "Paris", [""]),
    ("both_empty_strings", "", [""]),
    ("punctuation_only_both", "!!!", ["?"]),
    ("empty_rule_per_reference", "the", ["cat", "an"]),
    ("all_references_empty_prediction_not", "cat", ["", "the", "..."]),
    ("article_inside_word_kept", "theater", ["the theater"]),
    ("an_inside_word_kept", "another", ["other"]),
    ("articles_any_case", "THE An A cat", ["cat"]),
    ("article_after_punctuation_removed", "the, cat", ["cat"]),
    ("apostrophe_joins", "don't stop", ["dont stop"]),
    ("apostrophe_not_split", "don't", ["don t"]),
    ("underscore_deleted", "snake_case", ["snakecase"]),
    ("digit_grouping_comma", "1,000 people", ["1000 people"]),
    ("dotted_initials", "U.S.A.", ["usa"]),
    ("unicode_guillemets_kept", "\u00abParis\u00bb", ["Paris"]),
    ("em_dash_kept", "Paris\u2014France", ["Paris France"]),
    ("curly_quotes_kept", "\u201cParis\u201d", ["Paris"]),
    ("no_break_space_splits", "New\u00a0York", ["new york"]),
    ("zero_width_space_no_split", "New\u200bYork", ["new york"]),
    ("tabs_newlines_split", "new\t\n york\r\n", ["New York"]),
    ("ideographic_space_splits", "\u6771\u4eac\u3000\u30bf\u30ef\u30fc", ["\u6771\u4eac \u30bf\u30ef\u30fc"]),
    ("dotted_capital_i_lowercase", "\u0130stanbul", ["istanbul"]),
    ("dotted_capital_i_both_sides", "\u0130STANBUL", ["\u0130stanbul"]),
    ("sharp_s_not_folded", "Stra\u00dfe", ["strasse"]),
    ("nfc_nfd_differ", "caf\u00e9", ["cafe\u0301"]),
    ("article_before_combining_mark", "a\u0301 b", ["b"]),
    ("fullwidth_letters_not_articles", "\uff34\uff28\uff25 cat", ["cat"]),
    ("no_overlap", "red apple", ["green pear"]),
    ("first_reference_best", "george washington", ["George Washington", "Washington", "the president"]),
    ("last_reference_best", "george washington", ["the president", "Washington", "George Washington"]),
    ("duplicate_references", "a big dog", ["big dog", "big dog"]),
    ("precision_recall_differ", "the big red dog barked", ["a dog"]),
    ("prediction_repeats_clipped", "dog dog dog dog", ["dog"]),
    ("reference_repeats_clipped", "dog", ["dog dog dog dog"]),
    ("order_ignored", "washington george", ["George Washington"]),
    ("only_whitespace", " \t\n ", ["the"]),
    ("article_before_em_dash", "the\u2014cat", ["cat"]),
    ("article_in_curly_quotes", "\u201ca\u201d answer", ["answer"]),
    ("article_after_zero_width_space", "big\u200ban", ["big"]),
    ("set_would_undercount", "cat cat cat dog", ["cat cat cat bird"]),
]

WORDS = ["the", "The", "THE", "a", "A", "an", "An", "cat", "Cat", "sat", "on", "mat", "dog",
         "Paris", "paris", "France", "theater", "another", "banana", "1,000", "42", "U.S.",
         "don't", "it's", "e-mail", "snake_case", "caf\u00e9", "cafe\u0301", "na\u00efve",
         "\u00abParis\u00bb", "\u6771\u4eac", "\u043c\u0438\u0440", "Stra\u00dfe", "\u0130zmir",
         "\U0001f600", "x", "y"]
SEPARATORS = [" ", " ", " ", "  ", "\t", "\n", "\u00a0", ", ", ". ", "! ", " - ", "\u2014",
              "\u3000", "\u200b", "?", " (", ") "]


def random_text(rng, max_words):
    n = rng.randint(0, max_words)
    parts = []
    for i in range(n):
        if i:
            parts.append(rng.choice(SEPARATORS))
        parts.append(rng.choice(WORDS))
    if rng.random() < 0.3:
        parts.append(rng.choice(["!", ".", "?", "...", ""]))
    return "".join(parts)


def related_text(rng, base):
    """A variant of `base`: words dropped, duplicated, re-cased, punctuated."""
    words = base.split()
    out = []
    for w in words:
        roll = rng.random()
        if roll < 0.15:
            continue
        if roll < 0.25:
            out.append(w)
        if roll < 0.35:
            w = w.upper()
        out.append(w)
    if rng.random() < 0.4:
        out.insert(rng.randint(0, len(out)), rng.choice(WORDS))
    return rng.choice([" ", "  ", ", "]).join(out)


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    inputs = []
    for _ in range(count):
        prediction = random_text(rng, rng.choice([0, 1, 3, 8, 20]))
        references = []
        for _ in range(rng.choice([0, 1, 1, 2, 3, 4]) if rng.random() < 0.98 else 0):
            if prediction and rng.random() < 0.6:
                references.append(related_text(rng, prediction))
            else:
                references.append(random_text(rng, rng.choice([0, 1, 3, 8, 20])))
        inputs.append(([prediction, references], {}))
    return inputs


def main():
    token_f1 = load_reference(FOLDER).token_f1
    rng = random.Random(SEED)
    cases = list(EDGE_CASES)
    for i in range(30):
        prediction = random_text(rng, rng.choice([3, 8, 20]))
        references = []
        for _ in range(rng.choice([1, 1, 2, 3, 4])):
            if prediction and rng.random() < 0.6:
                references.append(related_text(rng, prediction))
            else:
                references.append(random_text(rng, rng.choice([3, 8, 20])))
        cases.append((f"random_{i:02d}", prediction, references))
    vocab = [f"w{k}" for k in range(60)] + ["the", "a", "an"]
    prediction = " ".join(rng.choice(vocab) for _ in range(1500))
    references = [" ".join(rng.choice(vocab) for _ in range(1200)) for _ in range(3)]
    cases.append(("long_texts", prediction, references))

    write_hidden(FOLDER, [(name, [prediction, references]) for name, prediction, references in cases],
                 token_f1, check=lambda value: type(value) is float and math.isfinite(value))


if __name__ == "__main__":
    main()
