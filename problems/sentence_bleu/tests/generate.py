"""Rebuild tests/hidden.json for sentence_bleu deterministically.

Run from anywhere: python problems/sentence_bleu/tests/generate.py
Expected values come from reference.py in the problem folder.
"""

import math
import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 4042014


EDGE_CASES = [
    ("whitespace_only_hypothesis", " \t\n ", ["the refund was sent"]),
    ("one_token_exact", "Thanks", ["Thanks"]),
    ("one_token_no_match", "Thanks", ["Cheers"]),
    ("case_sensitive_tokens", "The Refund Was Sent", ["the refund was sent"]),
    ("empty_reference_is_closest", "a", ["", "a b c"]),
    ("only_empty_reference", "a b", [""]),
    ("trailing_hyphen_newline_stripped_first", "refund-\n", ["refund-"]),
    ("trailing_hyphen_newline_not_joined", "refund-\n", ["refund"]),
    ("inner_hyphen_newline_joined", "refund-\nstatus page", ["refundstatus page"]),
    ("tie_shorter_listed_second", "one two three four", ["one two three four five", "one two three"]),
    ("tie_avoids_penalty", "a b", ["a b c", "a"]),
    ("closest_is_longer_reference", "a b c d e", ["a b c d e f", "a b"]),
    ("hypothesis_longer_than_all", "a b c d e f g h", ["a b c", "a b c d"]),
    ("five_references", "the page is down now",
     ["a page is down", "the page is up", "now the page is down", "", "the site is down now ."]),
    ("clip_max_not_sum", "the the the cat", ["the cat", "the dog", "the bird"]),
    ("only_unigrams_match", "d c b a", ["a b c d"]),
    ("unigram_and_bigram_match_only", "a b x c d", ["a b c d"]),
    ("punctuation_split_by_13a", "Refunds take 5-7 days, sometimes more.",
     ["Refunds take 5 - 7 days , sometimes more ."]),
    ("whitespace_split_would_differ", "page.", ["page"]),
    ("entities_decoded", "Tom &amp; Jerry", ["Tom & Jerry"]),
    ("unicode_tokens", "caf\u00e9 na\u00efve \u6771\u4eac \U0001f44d", ["caf\u00e9 na\u00efve \u6771\u4eac \U0001f44d !"]),
    ("nfc_vs_nfd_differ", "caf\u00e9 au lait", ["cafe\u0301 au lait"]),
    ("repeated_hypothesis_short_reference", "yes yes yes yes yes yes", ["yes"]),
    ("three_token_hypothesis", "the cat sat", ["the cat sat on the mat"]),
    ("entity_gt_decoded", "x &gt; y", ["x > y z"]),
    ("entity_lt_decoded", "a &lt; b", ["a < b c"]),
    ("entity_quot_decoded", "he said &quot;yes&quot;", ['he said "yes" twice']),
]

WORDS = ["the", "a", "refund", "status", "page", "is", "was", "down", "up", "sent", "on",
         "May", "3", "cat", "sat", "mat", "The", "refund-status", "don't", "caf\u00e9",
         "\u6771\u4eac", "\U0001f44d", "3.5", "1,000"]
PUNCT = [".", ",", "!", "?", "(", ")", "_", "-", "$", "'", "\u2026", ":"]


def random_reference(rng):
    length = rng.choice([0, 1, 2, rng.randint(4, 12), rng.randint(4, 12), rng.randint(8, 25),
                         rng.randint(8, 25)])
    parts = []
    for _ in range(length):
        word = rng.choice(WORDS)
        if rng.random() < 0.15:
            word += rng.choice(PUNCT)
        parts.append(word)
    return rng.choice([" ", " ", "  ", "\t"]).join(parts)


def perturb(rng, text):
    words = text.split()
    out = []
    for word in words:
        roll = rng.random()
        if roll < 0.08:
            continue
        if roll < 0.18:
            out.append(rng.choice(WORDS))
        else:
            out.append(word)
        if rng.random() < 0.08:
            out.append(rng.choice(WORDS + PUNCT))
    if rng.random() < 0.2:
        out.append(rng.choice([".", "!", "\n", " "]))
    return " ".join(out)


FUZZ_EXTRA = ['"', "&quot;", "&amp;", "&lt;", "&gt;", "<", ">", "&", "<skipped>", "a-\nb", "x\ny", "-\n", "5-7",
              "(a)", "3.5.", "a,b"]


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""

    def spice(text):  # 13a's special strings: entities, <skipped>, newlines, quotes
        words = text.split(" ")
        for _ in range(rng.choice([0, 0, 1, 2, 3])):
            words.insert(rng.randrange(len(words) + 1), rng.choice(FUZZ_EXTRA))
        return rng.choice([" ", "", " ", "\n"]).join(words)

    inputs = []
    for _ in range(count):
        references = [random_reference(rng) for _ in range(rng.choice([1, 1, 2, 3, 4]))]
        source = rng.choice(references)
        hypothesis = perturb(rng, source) if rng.random() < 0.85 else random_reference(rng)
        if rng.random() < 0.5:
            spiced = spice(source)
            references = [spiced if ref is source else ref for ref in references]
            hypothesis = spice(hypothesis) if rng.random() < 0.5 else perturb(rng, spiced)
        inputs.append(([hypothesis, references], {}))
    return inputs


def main():
    sentence_bleu = load_reference(FOLDER).sentence_bleu
    rng = random.Random(SEED)
    cases = list(EDGE_CASES)
    for i in range(30):
        references = [random_reference(rng) for _ in range(rng.choice([1, 1, 2, 3, 4]))]
        source = rng.choice(references)
        hypothesis = perturb(rng, source) if rng.random() < 0.85 else random_reference(rng)
        cases.append((f"random_{i:02d}", hypothesis, references))
    # Long texts: many n-grams and several references.
    base = [rng.choice(WORDS) for _ in range(400)]
    references = [" ".join(base)] + [perturb(rng, " ".join(base)) for _ in range(3)]
    cases.append(("long_four_references", perturb(rng, " ".join(base)), references))

    write_hidden(FOLDER, [(name, [hypothesis, references]) for name, hypothesis, references in cases],
                 sentence_bleu,
                 check=lambda value: type(value) is float and math.isfinite(value) and 0.0 <= value <= 1.0)


if __name__ == "__main__":
    main()
