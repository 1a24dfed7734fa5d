"""Rebuild tests/hidden.json for mcq_answer.

Run from anywhere: python problems/mcq_answer/tests/generate.py
Expected values come from reference.py; the random cases use a fixed seed, so the output is stable.
"""

import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 1984


HAND = [
    ("empty_reply", [""], {}),
    ("no_letters", ["42!"], {}),
    ("e_not_an_option", ["E"], {}),
    ("e_with_five_options", ["I choose E."], {"options": "ABCDE"}),
    ("repeated_letter_once", ["B... yes, B"], {}),
    ("article_with_period", ["the answer is a."], {}),
    ("article_mid_sentence", ["It is a trick; pick d"], {}),
    ("a_before_paren", ["a) Paris"], {}),
    ("a_after_paren_only", ["option (a"], {}),
    ("uppercase_a_always", ["The answer is A"], {}),
    ("uppercase_a_article_limitation", ["A good choice is D"], {}),
    ("bold_markdown", ["**D**"], {}),
    ("option_prefix_colon", ["Answer: b"], {}),
    ("letter_then_comma", ["B, because"], {}),
    ("digit_glues_after", ["B2"], {}),
    ("digit_glues_before", ["3C"], {}),
    ("underscore_glues", ["option_B"], {}),
    ("hyphen_glues", ["A-level and B-cell"], {}),
    ("right_quote_glues", ["I\u2019d say C"], {}),
    ("curly_closing_quote_glues", ["\u2018B\u2019 is it"], {}),
    ("double_quotes_do_not_glue", ['"C"'], {}),
    ("cyrillic_neighbour_glues", ["\u0411B"], {}),
    ("fullwidth_letter_not_option", ["\uff21"], {}),
    ("fullwidth_neighbour_glues", ["\uff21B"], {}),
    ("accented_neighbour_glues", ["\u00e9B"], {}),
    ("negation_still_reads", ["Not B, the answer is C"], {}),
    ("eg_reads_e_when_option", ["e.g. A"], {"options": "ABCDE"}),
    ("eg_without_e_option", ["e.g. A"], {}),
    ("pronoun_i_many_options", ["I think J"], {"options": "ABCDEFGHIJ"}),
    ("two_options_only", ["C or B"], {"options": "AB"}),
    ("all_four", ["A, B, C and D"], {}),
    ("lowercase_all", ["b c d"], {}),
    ("slash_separated", ["B/C"], {}),
    ("newline_separated", ["Answer:\nC\n"], {}),
    ("tab_separated", ["\tD\t"], {}),
    ("refusal_no_choice", ["I cannot answer this question."], {}),
    ("options_reordered", ["A and D"], {"options": "DCBA"}),
    ("unicode_text_around", ["答案是 B。"], {}),
    ("emoji_neighbour", ["B\U0001f44d"], {}),
    ("letter_x_in_formula", ["x = 2, so b"], {}),
    ("z_with_all_letters", ["Z"], {"options": "ABCDEFGHIJKLMNOPQRSTUVWXYZ"}),
    ("lowercase_z_option", ["z"], {"options": "XYZ"}),
]

FRAGMENTS = ["the answer is", "I think", "option", "answer:", "maybe", "a", "A", "b", "B)", "(c)",
             "C.", "d", "**D**", "E", "can", "I'd", "B-cell", "not", "(a)", "a)", "é", "中",
             ",", ".", "!", "/", "'", "-", "_", "x2", "2", "\n"]


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    letters = [chr(c) for c in range(ord("A"), ord("Z") + 1)]
    inputs = []
    for _ in range(count):
        pieces = FRAGMENTS + letters + [letter.lower() for letter in letters] + ["(a)", "a)", "(z", "Z."]
        words = [rng.choice(pieces) for _ in range(rng.randrange(1, 8))]
        reply = "".join(w + rng.choice([" ", " ", "", "\n", ",", "("]) for w in words).strip(" ")
        roll = rng.random()
        if roll < 0.5:
            kwargs = {}
        elif roll < 0.8:
            kwargs = {"options": rng.choice(["AB", "ABC", "ABCDE", "DCBA", "ABCDEFGHIJ"])}
        else:
            kwargs = {"options": "".join(rng.sample(letters, rng.randint(1, 26)))}
        inputs.append(([reply], kwargs))
    return inputs


def main():
    reference = load_reference(FOLDER).mcq_answer
    rng = random.Random(SEED)
    cases = list(HAND)
    for i in range(26):
        words = [rng.choice(FRAGMENTS) for _ in range(rng.randrange(1, 8))]
        reply = "".join(w + rng.choice([" ", " ", "", "\n"]) for w in words).strip(" ")
        kwargs = {} if rng.random() < 0.6 else {"options": rng.choice(["AB", "ABC", "ABCDE"])}
        cases.append((f"random_{i:02d}", [reply], kwargs))

    write_hidden(FOLDER, cases, reference)


if __name__ == "__main__":
    main()
