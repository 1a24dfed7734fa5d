"""Rebuild tests/hidden.json for chrf_plus_plus deterministically.

Run from anywhere: python problems/chrf_plus_plus/tests/generate.py
Expected values come from reference.py in the problem folder.
"""

import math
import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 2017


EDGE_CASES = [
    ("empty_hypothesis", "", ["the refund"]),
    ("empty_reference", "the refund", [""]),
    ("whitespace_only_both", " \t\n", ["\u00a0 \u3000"]),
    ("no_match_at_any_order", "ab", ["cd"]),
    ("one_word_no_bigram", "refund", ["refund"]),
    ("one_word_against_two", "refund", ["refund sent"]),
    ("one_character_against_long", "a", ["abcdefghij"]),
    ("case_counts", "CAT sat", ["cat sat"]),
    ("repeated_words_clipped", "the the the the", ["the cat"]),
    ("space_before_final_period", "cat sat.", ["cat sat ."]),
    ("leading_punctuation_split", "'tis true", ["' tis true"]),
    ("end_checked_before_start", "(hi)", ["(hi )"]),
    ("end_before_start_other_order", "(hi)", ["( hi)"]),
    ("both_ends_not_split", "(hi) there", ["( hi ) there"]),
    ("only_one_character_split", "end?! now", ["end? ! now"]),
    ("one_character_word_kept", ". , !", [". , !"]),
    ("two_punctuation_characters", "-- x", ["- - x"]),
    ("ascii_symbols_are_punctuation", "cost$ +1 <b> x^ a| ~z `q", ["cost $ + 1 <b > x ^ a | ~ z ` q"]),
    ("unicode_punctuation_not_split", "wait\u2026 \u00abhi\u00bb \u00bfque? a\u2014",
     ["wait \u2026 \u00ab hi \u00bb \u00bf que ? a \u2014"]),
    ("quote_split_off_end", 'he said "hi"', ['he said "hi "']),
    ("hyphenated_word_whole", "e-mail me", ["e - mail me"]),
    ("digits_and_decimal", "pi is 3.14.", ["pi is 3.14 ."]),
    ("tab_newline_nbsp_separate_words", "refund\tstatus\npage\u00a0down\u3000now",
     ["refund status page down now"]),
    ("zero_width_space_joins_word", "re\u200bfund status", ["refund status"]),
    ("now_here_nowhere", "now here", ["nowhere"]),
    ("nfc_vs_nfd", "caf\u00e9 au lait", ["cafe\u0301 au lait"]),
    ("cjk_no_spaces", "\u6771\u4eac\u306f\u5927\u304d\u3044", ["\u6771\u4eac\u306f\u5c0f\u3055\u3044"]),
    ("emoji_word", "good \U0001f44d!", ["good \U0001f44d !"]),
    ("best_reference_listed_last", "the refund was sent.",
     ["a totally different sentence", "", "the refund was sent today."]),
    ("word_order_swapped", "sent was refund the", ["the refund was sent"]),
    ("five_references_with_empty", "status page down!",
     ["", "the status page is down", "page down !", "STATUS PAGE DOWN", "status page down!!"]),
    ("hypothesis_much_longer", "the refund was sent on the third of May after a long wait.",
     ["refund sent."]),
]

WORDS = ["the", "refund", "status", "page", "is", "down", "sent", "cat", "cats", "The", "CAT", "a",
         "e-mail", "don't", "caf\u00e9", "\u6771\u4eac", "3.14", "\U0001f44d"]
PUNCT = [".", ",", "!", "?", "(", ")", '"', "'", "-", "--", "$", ":", ";", "\u2026", "\u00ab", "\u00bb",
         "~", "`"]
SEPARATORS = [" ", " ", " ", "\t", "\u00a0", "\n", "  ", ""]


def random_text(rng, length):
    parts = []
    for _ in range(length):
        word = rng.choice(WORDS)
        roll = rng.random()
        if roll < 0.15:
            word += rng.choice(PUNCT)
        elif roll < 0.25:
            word = rng.choice(PUNCT) + word
        elif roll < 0.3:
            word = rng.choice(PUNCT) + word + rng.choice(PUNCT)
        elif roll < 0.35:
            word = rng.choice(PUNCT)
        parts.append(word + rng.choice(SEPARATORS))
    return "".join(parts).rstrip(" ")


def mutate(rng, text):
    words = text.split(" ")
    out = []
    for word in words:
        roll = rng.random()
        if roll < 0.1:
            continue
        if roll < 0.2:
            out.append(rng.choice(WORDS))
        elif roll < 0.3 and len(word) > 1:
            out.extend([word[:-1], word[-1]])  # hand-tokenized punctuation
        elif roll < 0.35:
            out.append(word + rng.choice(PUNCT))
        else:
            out.append(word)
    return " ".join(out)


def random_case(rng):
    references = [random_text(rng, rng.choice([0, 1, 2, 3, rng.randint(2, 10), rng.randint(4, 16)]))
                  for _ in range(rng.choice([1, 1, 2, 3, 5]))]
    source = rng.choice(references)
    hypothesis = mutate(rng, source) if rng.random() < 0.8 else random_text(rng, rng.randint(0, 8))
    return hypothesis, references


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    return [(list(random_case(rng)), {}) for _ in range(count)]


def main():
    chrf_plus_plus = load_reference(FOLDER).chrf_plus_plus
    rng = random.Random(SEED)
    cases = list(EDGE_CASES)
    for i in range(30):
        hypothesis, references = random_case(rng)
        cases.append((f"random_{i:02d}", hypothesis, references))
    long_reference = random_text(rng, 400)
    cases.append(("long_texts", mutate(rng, long_reference), [long_reference, mutate(rng, long_reference)]))

    write_hidden(FOLDER, [(name, [hypothesis, references]) for name, hypothesis, references in cases],
                 chrf_plus_plus,
                 check=lambda value: type(value) is float and math.isfinite(value)
                 and 0.0 <= value <= 1.0 + 1e-12)


if __name__ == "__main__":
    main()
