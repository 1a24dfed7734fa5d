"""Rebuild tests/hidden.json for corpus_bleu deterministically.

Run from anywhere: python problems/corpus_bleu/tests/generate.py
Expected values come from reference.py in the problem folder.
"""

import math
import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 2002

EDGE_CASES = [
    ("lengths_differ_more_references_raises", ["a b c d"], [["a b c d"], ["a b c d"]]),
    ("lengths_differ_more_hypotheses_raises", ["a b c d", "e f g h"], [["a b c d"]]),
    ("no_hypotheses_one_reference_list_raises", [], [["a b c d"]]),
    ("both_empty_raises", [], []),
    ("first_reference_list_empty_raises", ["a b c d", "e f g h"], [[], ["e f g h"]]),
    ("middle_reference_list_empty_raises", ["a b", "c d", "e f"], [["a b"], [], ["e f"]]),
    ("only_sentence_without_reference_raises", ["a b c d"], [[]]),
    ("all_hypotheses_empty", ["", " \t\n"], [["the refund was sent"], ["ok"]]),
    ("single_sentence_exact", ["the refund was sent"], [["the refund was sent"]]),
    ("three_tokens_no_four_grams", ["a b c"], [["a b c"]]),
    ("short_sentences_no_four_grams", ["a b", "c d e", "f"], [["a b"], ["c d e"], ["f"]]),
    ("long_sentence_supplies_four_grams", ["a b", "c d e f"], [["a b"], ["c d e f"]]),
    ("no_four_gram_match", ["a b c d x", "e f g h"], [["a b c y d"], ["e f g y h"]]),
    ("one_sentence_no_match", ["the cat sat on the mat", "zzz"], [["the cat sat on the mat"], ["yyy"]]),
    ("sentence_scores_would_be_zero", ["a b c d x", "p q r"], [["a b c d y"], ["p q r"]]),
    ("clip_max_not_sum", ["the the the cat sat on a mat"],
     [["the cat sat on a mat", "the dog sat on a mat", "the bird sat on a mat"]]),
    ("clip_within_sentence_only", ["a b c d", "a b c d"], [["a b c d"], ["x y z w"]]),
    ("swapped_hypotheses", ["e f g h", "a b c d"], [["a b c d"], ["e f g h"]]),
    ("swapped_hypotheses_partial", ["e f g h i", "a b c d j"], [["a b c d"], ["e f g h i"]]),
    ("repeated_tokens_clipped", ["yes yes yes yes yes yes", "a b c d"], [["yes"], ["a b c d"]]),
    ("tie_shorter_listed_second", ["one two three four"], [["one two three four five", "one two three"]]),
    ("tie_shorter_listed_first", ["one two three four"], [["one two three", "one two three four five"]]),
    ("closest_is_longer_reference", ["a b c d e"], [["a b c d e f", "a b"]]),
    ("shortest_would_hide_penalty", ["a b c d e f g", "h i j k"], [["a b c d e f g h", "a b"], ["h i j k"]]),
    ("empty_reference_is_closest", ["a b c d", "e"], [["a b c d"], ["", "e f g h"]]),
    ("empty_reference_only", ["a b c d e", "x"], [["a b c d e"], [""]]),
    ("short_and_long_balance", ["a b c d", "w x y z extra words"], [["a b c d e f"], ["w x y z"]]),
    ("penalty_applies_overall", ["a b c d", "w x y z"], [["a b c d e f"], ["w x y z q"]]),
    ("variable_reference_counts", ["the page is down now", "the refund was sent", "ok then"],
     [["the page is down", "now the page is down", "the site is down now ."],
      ["the refund was sent"], ["ok", "ok then !"]]),
    ("punctuation_split_by_13a", ["Refunds take 5-7 days, sometimes more.", "page."],
     [["Refunds take 5 - 7 days , sometimes more ."], ["page ."]]),
    ("whitespace_split_would_differ", ["the page is down.", "it works."],
     [["the page is down ."], ["it works"]]),
    ("entities_decoded", ["Tom &amp; Jerry &gt; Spike &lt; Tyke"], [["Tom & Jerry > Spike < Tyke"]]),
    ("rstrip_before_tokenizing", ["a b c refund-\n"], [["a b c refund-"]]),
    ("inner_hyphen_newline_joined", ["refund-\nstatus page is down"], [["refundstatus page is down"]]),
    ("case_sensitive", ["The Refund Was Sent", "the refund was sent"],
     [["the refund was sent"], ["the refund was sent"]]),
    ("double_encoded_entity_decoded_twice", ["x &amp;lt; y z w"], [["x < y z w"]]),
    ("gt_entity_is_one_token", ["a b c d &gt;"], [["a b c d e"]]),
    ("quot_entity_decoded", ["he said &quot;yes&quot; twice"], [['he said "yes" twice']]),
]

WORDS = ["the", "a", "refund", "status", "page", "is", "was", "down", "up", "sent", "on",
         "May", "3", "cat", "sat", "mat", "The", "refund-status", "don't", "caf\u00e9",
         "\u6771\u4eac", "\U0001f44d", "3.5", "1,000"]
PUNCT = [".", ",", "!", "?", "(", ")", "_", "-", "$", "'", "\u2026", ":"]
FUZZ_EXTRA = ['"', "&quot;", "&amp;", "&lt;", "&gt;", "&amp;lt;", "<", ">", "&", "<skipped>", "a-\nb", "x\ny",
              "-\n", "5-7"]


def random_reference(rng, short=False):
    if short:
        length = rng.choice([0, 1, 2, 3, 4])
    else:
        length = rng.choice([0, 1, 2, 3, rng.randint(4, 12), rng.randint(4, 12), rng.randint(8, 25)])
    parts = []
    for _ in range(length):
        word = rng.choice(WORDS)
        if rng.random() < 0.15:
            word += rng.choice(PUNCT)
        parts.append(word)
    return rng.choice([" ", " ", "  ", "\t"]).join(parts)


def perturb(rng, text):
    out = []
    for word in text.split():
        roll = rng.random()
        if roll < 0.08:
            continue
        out.append(rng.choice(WORDS) if roll < 0.18 else word)
        if rng.random() < 0.08:
            out.append(rng.choice(WORDS + PUNCT + FUZZ_EXTRA))
    if rng.random() < 0.2:
        out.append(rng.choice([".", "!", "\n", " "]))
    return " ".join(out)


def random_corpus(rng, sentences, short=False):
    hypotheses, references = [], []
    for _ in range(sentences):
        refs = [random_reference(rng, short) for _ in range(rng.choice([1, 1, 2, 3, 4]))]
        source = rng.choice(refs)
        hypotheses.append(perturb(rng, source) if rng.random() < 0.85 else random_reference(rng, short))
        references.append(refs)
    return hypotheses, references


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    inputs = []
    for _ in range(count):
        hypotheses, references = random_corpus(rng, rng.choice([1, 1, 2, 3, 5, 10]), short=rng.random() < 0.2)
        roll = rng.random()
        if roll < 0.03:
            references.append([random_reference(rng)])
        elif roll < 0.06:
            references[rng.randrange(len(references))] = []
        elif roll < 0.08:
            hypotheses, references = [], []
        inputs.append(([hypotheses, references], {}))
    return inputs


def main():
    corpus_bleu = load_reference(FOLDER).corpus_bleu
    rng = random.Random(SEED)
    cases = list(EDGE_CASES)
    for i in range(30):
        hypotheses, references = random_corpus(rng, rng.choice([1, 2, 3, 5, 8]), short=i % 6 == 5)
        cases.append((f"random_{i:02d}", hypotheses, references))
    hypotheses, references = random_corpus(rng, 60)
    cases.append(("long_sixty_sentences", hypotheses, references))

    write_hidden(FOLDER, [(name, [hypotheses, references]) for name, hypotheses, references in cases],
                 corpus_bleu, raises=ValueError,
                 check=lambda value: type(value) is float and math.isfinite(value) and 0.0 <= value <= 1.0)


if __name__ == "__main__":
    main()
