"""Rebuild tests/hidden.json for short_answer_match.

Run from anywhere: python problems/short_answer_match/tests/generate.py
Expected values come from reference.py; the random cases use a fixed seed, so the output is stable.
"""

import copy
import random
import unicodedata
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 299792


HAND = [
    ("empty_reply", ["", "Paris"]),
    ("empty_expected", ["Paris", ""]),
    ("whitespace_expected", ["Paris", "   "]),
    ("empty_expected_alias_hits", ["Paris", "", ["paris"]]),
    ("empty_aliases_list", ["Paris", "paris", []]),
    ("alias_only_second", ["Answer: H2O", "water", ["dihydrogen monoxide", "H2O"]]),
    ("no_alias_hits", ["Answer: ice", "water", ["H2O", "aqua"]]),
    ("alias_inside_word", ["NYCity", "New York", ["NYC"]]),
    ("three_groups_spaces", ["about 1 234 567 people", "1,234,567"]),
    ("mixed_separators", ["1 234,567", "1234567"]),
    ("long_head_group", ["12345,678", "12345678"]),
    ("four_digits_after_space", ["1 2345", "12345"]),
    ("four_digits_after_comma", ["1,2345", "12345"]),
    ("period_not_grouping", ["299.792 km/s", "299792"]),
    ("comma_list_kept", ["1, 2, 3", "123"]),
    ("comma_space_not_grouping", ["299, 792", "299792"]),
    ("double_space_grouping", ["299  792", "299792"]),
    ("nbsp_grouping", ["299\u00a0792", "299792"]),
    ("thin_space_grouping", ["299\u2009792", "299,792"]),
    ("narrow_nbsp_grouping", ["299\u202f792", "299792"]),
    ("fullwidth_digits", ["２９９７９２", "299792"]),
    ("fullwidth_comma_grouping", ["299\uff0c792", "299792"]),
    ("grouping_glues_numbers", ["in 1990 123 people", "1990123"]),
    ("number_inside_bigger", ["2997921", "299792"]),
    ("number_after_letter", ["x299792", "299792"]),
    ("number_before_unit_letters", ["299792km", "299792"]),
    ("number_decimal_after", ["3.14", "3"]),
    ("underscore_is_word", ["my_cat", "cat"]),
    ("hyphen_is_boundary", ["cat-like", "cat"]),
    ("apostrophe_is_boundary", ["cat's toy", "cat"]),
    ("plus_plus_edge", ["I use C++ daily", "c++"]),
    ("plus_plus_inside", ["C++11", "c++"]),
    ("phrase_ends_with_symbol", ["C++", "C"]),
    ("multiword_across_newline", ["New\nYork", "new york"]),
    ("multiword_split_wrong", ["Newark York", "new york"]),
    ("casefold_sigma", ["ΟΔΟΣ", "οδος"]),
    ("casefold_eszett_in_sentence", ["Er wohnt in der GROSSEN STRASSE 5", "Straße"]),
    ("second_occurrence_after_compound", ["bobcat and cat", "cat"]),
    ("casefold_ligature", ["ﬁnal answer", "final"]),
    ("nfkc_superscript", ["E = mc²", "mc2"]),
    ("decomposed_accent", ["cafe\u0301", "café"]),
    ("accented_letter_boundary", ["écat", "cat"]),
    ("japanese_no_spaces", ["首都は東京です", "東京"]),
    ("japanese_with_spaces", ["首都は 東京 です", "東京"]),
    ("negation_still_matches", ["It is not Paris", "Paris"]),
    ("punctuation_kept_in_phrase", ["U.S.A.", "usa"]),
    ("punctuation_kept_both", ["the U.S.A. team", "u.s.a"]),
    ("repeated_occurrences_last", ["cats cats cat", "cat"]),
    ("overlapping_occurrence", ["aaa a", "aa"]),
    ("expected_longer_than_reply", ["cat", "cat food"]),
    ("overlapping_occurrence_second_valid", ["x---", "--"]),
]

FILLER = ["the", "answer", "is", "about", "km/s", "I", "think", "maybe", "—", "(", ")", ",", ".",
          "Paris", "light", "speed", "°C", "und", "日本", "x", "it's"]
ANSWERS = ["Paris", "299,792", "1 234 567", "H2O", "New York City", "Straße", "42", "café",
           "C++", "東京", "3.14", "12,34"]


def disguise(rng, phrase):
    kind = rng.randrange(8)
    if kind == 0:
        return phrase.upper()
    if kind == 1:
        return unicodedata.normalize("NFD", phrase)
    if kind == 2:
        return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in phrase)
    if kind == 3:
        return phrase.replace(",", " ").replace(" ", rng.choice([" ", ",", "  ", "\u00a0"]))
    if kind == 4:
        return phrase + rng.choice(["s", "_", "1"])
    if kind == 5:
        return rng.choice(["x", "_", "9"]) + phrase
    return phrase


FUZZ_ANSWERS = ["--", "..", "++", "aa", "+", "000", "1 000", "1,000", "-", "x", "ab"]


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    answers = ANSWERS + FUZZ_ANSWERS
    inputs = []
    for _ in range(count):
        if rng.random() < 0.2:
            args = copy.deepcopy(rng.choice(HAND)[1])
            if rng.random() < 0.5:
                args[0] = disguise(rng, args[0])
        else:
            answer = rng.choice(answers)
            words = [rng.choice(FILLER + ["---", "...", "+++", "aaa", "0000", "x--"]) for _ in range(rng.randrange(0, 7))]
            for _ in range(rng.choice([0, 1, 1, 2])):
                words.insert(rng.randrange(len(words) + 1), disguise(rng, answer))
            args = [rng.choice([" ", " ", "", ","]).join(words), answer]
        if rng.random() < 0.4:
            args = args[:2] + [[disguise(rng, rng.choice(answers + [""])) for _ in range(rng.randrange(0, 3))]]
        inputs.append((args, {}))
    return inputs


def main():
    reference = load_reference(FOLDER).short_answer_match
    rng = random.Random(SEED)
    cases = list(HAND)
    for i in range(28):
        answer = rng.choice(ANSWERS)
        words = [rng.choice(FILLER) for _ in range(rng.randrange(0, 7))]
        if rng.random() < 0.8:
            words.insert(rng.randrange(len(words) + 1), disguise(rng, answer))
        reply = " ".join(words)
        args = [reply, answer]
        if rng.random() < 0.4:
            args.append([disguise(rng, rng.choice(ANSWERS)) for _ in range(rng.randrange(0, 3))])
        cases.append((f"random_{i:02d}", args))

    write_hidden(FOLDER, cases, reference)


if __name__ == "__main__":
    main()
