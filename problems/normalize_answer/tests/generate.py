"""Rebuild tests/hidden.json for normalize_answer.

Run from anywhere: python problems/normalize_answer/tests/generate.py
Expected values come from reference.py; the random cases use a fixed seed, so the output is stable.
"""

import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 5150


OFF = {"nfkc": False, "ignore_case": False, "trim_punctuation": False}

HAND = [
    ("empty_text", [""], {}),
    ("only_punctuation", ["..."], {}),
    ("only_whitespace", [" \t\n\u00a0 "], {}),
    ("punctuation_and_spaces_only", [' " . ! " '], {}),
    ("fullwidth_without_nfkc", ["ＡＢＣ"], {"nfkc": False}),
    ("keep_case_when_asked", ["  Paris  "], {"ignore_case": False}),
    ("guillemets_trimmed", ["«Oui»"], {}),
    ("inverted_question_mark", ["¿Qué?"], {}),
    ("inverted_exclamation", ["¡Hola!"], {}),
    ("em_dash_is_punctuation", ["—yes—"], {}),
    ("hyphen_kept_at_ends", ["-yes-"], {}),
    ("percent_kept", ["100%"], {}),
    ("plus_plus_kept", ["C++"], {}),
    ("hash_at_amp_dollar_kept", ["#1 @home & $5"], {"ignore_punctuation": True}),
    ("hash_at_ends_kept", ["#tag@"], {}),
    ("apostrophes_removed_inside", ["rock'n'roll"], {"ignore_punctuation": True}),
    ("apostrophes_kept_inside", ["rock'n'roll"], {}),
    ("underscore_is_punctuation", ["__init__"], {}),
    ("underscore_removed_inside", ["snake_case"], {"ignore_punctuation": True}),
    ("curly_quotes", ["“quoted” ‘text’"], {}),
    ("ideographic_full_stop", ["はい。"], {}),
    ("corner_brackets", ["「はい」"], {}),
    ("fullwidth_exclamation", ["ＹＥＳ！"], {}),
    ("ligature_nfkc", ["ﬁnal"], {}),
    ("ligature_no_nfkc_but_casefold", ["ﬁnal"], {"nfkc": False}),
    ("ligature_no_nfkc_no_case", ["ﬁnal"], {"nfkc": False, "ignore_case": False}),
    ("nbsp_inside_collapsed", ["10\u00a0\u00a0kg"], {}),
    ("nbsp_collapsed_without_nfkc", ["10\u00a0kg"], {"nfkc": False}),
    ("superscript_nfkc", ["x²"], {}),
    ("superscript_kept_without_nfkc", ["x²"], {"nfkc": False}),
    ("symbols_kept", ["^=|€<>"], {"ignore_punctuation": True}),
    ("trim_off_keeps_period", ["Positive."], {"trim_punctuation": False}),
    ("ignore_overrides_trim_off", ["(a) b."], {"trim_punctuation": False, "ignore_punctuation": True}),
    ("ignore_no_space_inserted", ["yes,no"], {"ignore_punctuation": True}),
    ("ignore_then_collapse", ["yes , no"], {"ignore_punctuation": True}),
    ("everything_off", ["  ＡＢ  «c»  "], OFF),
    ("greek_final_sigma", ["ΟΔΟΣ."], {}),
    ("dotted_capital_i", ["İstanbul"], {}),
    ("inner_newlines", ["line one\n\nline two\r\n"], {}),
    ("brackets_nested", ["[(answer)]"], {}),
    ("ellipsis_char", ["wait…"], {}),
    ("minus_sign_unicode", ["\u22125"], {}),
]

PIECES = (
    list("abcXYZ019 ") * 3
    + list(".,;:!?'\"()[]{}-+%$#@&_/\\*~^=|<>")
    + ["«", "»", "“", "”", "—", "–", "¿", "¡", "。", "、", "・", "…", "€", "§", "¶"]
    + ["é", "ß", "Ω", "ж", "中", "ﬁ", "Ａ", "１", "😀", "\u00a0", "\t", "\n", "\u3000", "\u0301"]
)


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    inputs = []
    for _ in range(count):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randrange(0, 16)))
        kwargs = {}
        for key in ("nfkc", "ignore_case", "trim_punctuation", "ignore_punctuation"):
            if rng.random() < 0.4:
                kwargs[key] = rng.random() < 0.5
        inputs.append(([text], kwargs))
    return inputs


def main():
    reference = load_reference(FOLDER).normalize_answer
    rng = random.Random(SEED)
    cases = list(HAND)
    for i in range(30):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randrange(0, 16)))
        kwargs = {}
        for key in ("nfkc", "ignore_case", "trim_punctuation", "ignore_punctuation"):
            if rng.random() < 0.35:
                kwargs[key] = rng.random() < 0.5
        cases.append((f"random_{i:02d}", [text], kwargs))

    write_hidden(FOLDER, cases, reference)


if __name__ == "__main__":
    main()
