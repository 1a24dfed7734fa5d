"""Rebuild tests/hidden.json for rouge_lsum deterministically.

Run from anywhere: python problems/rouge_lsum/tests/generate.py
Expected values come from reference.py in the problem folder.
"""

import math
import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 2004


EDGE_CASES = [
    ("both_empty", "", ""),
    ("empty_reference", "", "the cat"),
    ("only_newlines", "\n\n\n", "the cat"),
    ("punctuation_only_candidate", "the cat", "...!\n?"),
    ("cyrillic_has_no_tokens", "\u041f\u0440\u0438\u0432\u0435\u0442, \u043c\u0438\u0440!",
     "\u043f\u0440\u0438\u0432\u0435\u0442 \u043c\u0438\u0440"),
    ("no_common_token", "red apple\ngreen pear", "blue sky"),
    ("identical_one_sentence", "the cat sat on the mat", "the cat sat on the mat"),
    ("identical_case_and_punctuation", "The CAT sat on the mat!", "the cat sat on the mat"),
    ("lin_union_example", "w1 w2 w3 w4 w5", "w1 w2 w6 w7 w8\nw1 w3 w8 w9 w5"),
    ("union_beats_best_sentence", "police arrested the armed suspect", "police arrested\nthe armed\nsuspect"),
    ("sentences_swapped", "a b\nc d", "c d\na b"),
    ("sentence_order_reversed_three", "one two\nthree four\nfive six", "five six\nthree four\none two"),
    ("clip_repeated_across_sentences", "the cat\nthe dog\nthe bird", "the the"),
    ("clip_one_candidate_token", "the cat\nthe dog", "the bird"),
    ("repeated_candidate_sentences", "a a a", "a\na\na\na"),
    ("trace_back_prefers_last_match", "x a y a", "a y\nx a"),
    ("trace_back_tie_listed_reversed", "a b", "a\nb a"),
    ("trace_back_tie_longer", "a b c", "c b a\nb\na"),
    ("trace_back_tie_two_ways", "p q r s", "q p s r\np\nr"),
    ("candidate_longer", "the cat", "the cat sat on the mat\ntoday it rained"),
    ("reference_longer", "the big fat cat sat\non the mat\nall day long", "cat mat"),
    ("blank_lines_dropped", "the cat\n\n\nsat", "the cat\n\nsat"),
    ("whitespace_only_line", "   \nthe cat", "the cat\n \t "),
    ("carriage_return_not_a_split", "a b\r\nc d", "c d\r\na b"),
    ("carriage_return_alone", "a b\rc d", "c d\ra b"),
    ("form_feed_not_a_split", "a b\x0cc d", "c d a b"),
    ("line_separator_not_a_split", "a b\u2028c d", "c d a b"),
    ("period_does_not_split", "a b. c d.", "c d. a b."),
    ("accented_letters_separate", "Caf\u00e9 na\u00efve", "caf na ve"),
    ("accent_kept_would_differ", "caf\u00e9 au lait", "caf au lait"),
    ("underscore_apostrophe_hyphen_split", "snake_case don't e-mail", "snake case don t e mail"),
    ("digits_tokens", "3.14 is pi\nroom 101", "pi is 3 14\n101 room"),
    ("kelvin_sign_lowercases_to_k", "\u212a m", "k m"),
    ("dotted_capital_i", "\u0130stanbul", "i stanbul"),
    ("fullwidth_not_ascii", "\uff21\uff22\uff23 abc", "abc"),
    ("superscript_not_digit", "x\u00b2 y", "x 2 y"),
]

WORDS = ["the", "The", "cat", "CAT", "sat", "on", "mat", "dog", "ran", "fast", "and", "a",
         "caf\u00e9", "na\u00efve", "\u043c\u0438\u0440", "3.14", "e-mail", "snake_case", "don't",
         "42", "police", "suspect", "was", "\u212a"]
SEPARATORS = [" ", " ", " ", " ", "  ", ", ", ". ", "! ", "\n", "\n", "\n\n", "\t", " - ", "\r\n", "\n \n"]


def random_text(rng, n):
    parts = []
    for i in range(n):
        if i:
            parts.append(rng.choice(SEPARATORS))
        parts.append(rng.choice(WORDS))
    return "".join(parts)


def mutate(rng, text):
    """An edited copy: lines reordered, words dropped, inserted and re-cased."""
    lines = text.split("\n")
    if len(lines) > 1 and rng.random() < 0.5:
        rng.shuffle(lines)
    out_lines = []
    for line in lines:
        out = []
        for word in line.split(" "):
            roll = rng.random()
            if roll < 0.15:
                continue
            if roll < 0.25:
                out.append(rng.choice(WORDS))
            out.append(word.upper() if roll > 0.9 else word)
        out_lines.append(" ".join(out))
    if rng.random() < 0.3:
        i = rng.randrange(len(out_lines) + 1)
        out_lines.insert(i, random_text(rng, rng.randint(1, 5)).replace("\n", " "))
    return "\n".join(out_lines)


def random_case(rng, sizes=(0, 1, 2, 3, 5, 8, 15, 25)):
    reference = random_text(rng, rng.choice(sizes))
    candidate = mutate(rng, reference) if rng.random() < 0.7 else random_text(rng, rng.choice(sizes))
    return reference, candidate


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    inputs = []
    for _ in range(count):
        reference, candidate = random_case(rng)
        pair = [reference, candidate] if rng.random() < 0.7 else [candidate, reference]
        inputs.append((pair, {}))
    return inputs


def main():
    rouge_lsum = load_reference(FOLDER).rouge_lsum
    rng = random.Random(SEED)
    cases = list(EDGE_CASES)
    for i in range(28):
        reference, candidate = random_case(rng)
        cases.append((f"random_{i:02d}", reference, candidate))
    for i, n in enumerate([150, 300]):
        reference = random_text(rng, n)
        cases.append((f"long_{i}", reference, mutate(rng, reference)))

    write_hidden(FOLDER, [(name, [reference, candidate]) for name, reference, candidate in cases], rouge_lsum,
                 check=lambda value: type(value) is float and math.isfinite(value) and 0.0 <= value <= 1.0)


if __name__ == "__main__":
    main()
