"""Rebuild tests/hidden.json for squad_normalize deterministically.

Run from anywhere: python problems/squad_normalize/tests/generate.py
Expected values come from reference.py in the problem folder.
"""

import random
import string
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 1989


EDGE_CASES = [
    ("empty_string", ""),
    ("only_whitespace", " \t\n\r\x0b\x0c "),
    ("already_normal", "eiffel tower"),
    ("single_article_a", "a"),
    ("single_article_capital_an", "An"),
    ("articles_repeated", "a a a the the an"),
    ("article_at_end", "this is a"),
    ("theater_kept", "theater"),
    ("another_kept", "another"),
    ("banana_kept", "banana"),
    ("anthem_and_then", "anthem then thee"),
    ("article_with_digit_kept", "a1 the2 3an"),
    ("underscore_deleted_then_article", "the_cat"),
    ("article_after_underscore_word", "snake_a"),
    ("all_ascii_punctuation", string.punctuation),
    ("punctuation_between_letters", "a.b,c!d"),
    ("dotted_initials", "U.S.A."),
    ("digit_grouping", "1,000,000 people"),
    ("decimal_point", "3.14 meters"),
    ("hyphenated_article", "a-b the-end"),
    ("article_then_hyphen_space", "the - end"),
    ("em_dash_kept", "paris\u2014the city"),
    ("article_before_em_dash", "the\u2014end"),
    ("curly_quotes_kept", "\u201cThe\u201d answer"),
    ("inverted_question_kept", "\u00bfQu\u00e9 tal?"),
    ("cjk_punctuation_kept", "\u6771\u4eac\u3001\u65e5\u672c\u3002"),
    ("no_break_space", "a\u00a0b\u00a0the\u00a0c"),
    ("ideographic_space", "\u6771\u4eac\u3000\u30bf\u30ef\u30fc"),
    ("zero_width_space_kept", "new\u200byork"),
    ("article_beside_zero_width_space", "\u200ba\u200b"),
    ("line_and_paragraph_separators", "one\u2028two\u2029three"),
    ("file_separator_controls", "x\x1cy\x1dz\x1ew\x1fv"),
    ("next_line_and_ogham_space", "x\x85y\u1680z"),
    ("fullwidth_not_lowered_to_ascii", "\uff34\uff28\uff25 \uff21"),
    ("fullwidth_punctuation_kept", "\uff01\uff1f"),
    ("dotted_capital_i", "\u0130"),
    ("greek_final_sigma", "\u039f\u0394\u039f\u03a3"),
    ("sharp_s_unchanged", "STRA\u00dfE"),
    ("combining_mark_after_a", "a\u0301 b"),
    ("precomposed_accent", "\u00e0 la carte"),
    ("emoji_kept", "the \U0001f600 a"),
    ("french_article_kept", "Le Monde"),
    ("leading_trailing_punct_spaces", " .the cat. "),
]

WORDS = ["The", "the", "THE", "a", "A", "an", "An", "cat", "theater", "another", "Banana",
         "Paris", "U.S.", "don't", "e-mail", "snake_case", "1,000", "3.14", "caf\u00e9",
         "\u00abParis\u00bb", "\u6771\u4eac", "\u041c\u0438\u0440", "\u0130zmir", "(a)", "[the]",
         "\"an\"", "it's", "x", "\U0001f600", "\u00bfqu\u00e9?"]
SEPARATORS = [" ", " ", " ", "  ", "\t", "\n", "\u00a0", "\u3000", "\u200b", "-", ".", ", ",
              "\u2014", "_", "/", "\r\n", ""]


def random_text(rng, n):
    parts = [rng.choice(["", " ", "  ", "\t", "\n"])]
    for i in range(n):
        if i:
            parts.append(rng.choice(SEPARATORS))
        parts.append(rng.choice(WORDS))
    parts.append(rng.choice(["", " ", ".", "!", "?", " \n"]))
    return "".join(parts)


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    return [([random_text(rng, rng.choice([0, 1, 2, 4, 8, 16]))], {}) for _ in range(count)]


def main():
    squad_normalize = load_reference(FOLDER).squad_normalize
    rng = random.Random(SEED)
    cases = list(EDGE_CASES)
    for i in range(26):
        cases.append((f"random_{i:02d}", random_text(rng, rng.choice([1, 2, 4, 8, 16]))))
    cases.append(("long_text", random_text(rng, 400)))

    write_hidden(FOLDER, [(name, [text]) for name, text in cases], squad_normalize,
                 check=lambda value: type(value) is str)


if __name__ == "__main__":
    main()
