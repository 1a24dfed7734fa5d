"""Rebuild tests/hidden.json for exact_match_explain.

Run from anywhere: python problems/exact_match_explain/tests/generate.py
Expected values come from reference.py; the random cases use a fixed seed, so the output is stable.
"""

import random
import unicodedata
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 20260311


HAND = [
    ("both_empty", "", ""),
    ("expected_empty", "", "x"),
    ("actual_empty", "Oslo", ""),
    ("identical_unicode", "Zürich 🚆", "Zürich 🚆"),
    ("actual_is_longer_prefix", "yes", "yes, definitely"),
    ("expected_is_longer_prefix", "positive.", "positive"),
    ("astral_char_code", "ok 😀", "ok 😃"),
    ("astral_past_end", "ok", "ok😀"),
    ("bom_is_not_whitespace", "\ufeffyes", "yes"),
    ("nbsp_trailing_is_whitespace", "yes\u00a0", "yes"),
    ("nbsp_inside_is_nfkc", "10\u00a0kg", "10 kg"),
    ("internal_double_space", "a b", "a  b"),
    ("leading_newline_tab", "\n\tanswer", "answer"),
    ("sharp_s_casefold_hidden", "Fuß", "FUSS"),
    ("final_sigma_case", "ΟΔΟΣ", "οδος"),
    ("ligature_case_and_nfkc", "ﬁle", "file"),
    ("fullwidth_digits_nfkc", "４２", "42"),
    ("decomposed_accent_nfc", "nai\u0308ve", "naïve"),
    ("hangul_jamo_nfc", "\u1100\u1161", "\uac00"),
    ("index_after_non_ascii", "naïve!", "naïve?"),
    ("index_after_emoji", "🙂🙂a", "🙂🙂b"),
    ("case_and_space_together", "Yes ", "yes"),
    ("nfkc_and_case_together", "ＡＢＣ", "abc"),
    ("superscript_two", "x²", "x2"),
    ("same_length_last_char", "abcd", "abce"),
    ("zero_width_space", "a\u200bb", "ab"),
    ("dotless_i", "I", "ı"),
    ("crlf_vs_lf", "line\r\n", "line\n"),
    ("only_whitespace_vs_empty", " \t\n", ""),
    ("angstrom_sign_nfc", "\u212b", "\u00c5"),
]

ALPHABET = (
    list("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    + list(" .,;:!?'\"-()")
    + ["é", "ü", "ß", "Ω", "ж", "中", "日", "ﬁ", "Ａ", "１", "😀", "\u00a0", "\u0301", "ç", "ø"]
)


def mutate(rng, text):
    kind = rng.randrange(10)
    if kind == 0:
        return text.upper()
    if kind == 1:
        return rng.choice([" ", "\n", "\t", "\u00a0", "  "]) + text + rng.choice(["", " ", "\n"])
    if kind == 2:
        return unicodedata.normalize("NFD", text)
    if kind == 3:
        return unicodedata.normalize("NFKD", text)
    if kind == 4 and text:
        i = rng.randrange(len(text))
        return text[:i] + rng.choice(ALPHABET) + text[i + 1:]
    if kind == 5:
        return text[: rng.randrange(len(text) + 1)]
    if kind == 6:
        return text + rng.choice(ALPHABET)
    if kind == 7:
        return text.swapcase()
    if kind == 8:
        return text
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(8)))


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    texts = [text for _, e, a in HAND for text in (e, a)]
    inputs = []
    for _ in range(count):
        if rng.random() < 0.3:
            base = rng.choice(texts)
        else:
            base = "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(0, 14)))
        other = mutate(rng, base)
        pair = [base, other] if rng.random() < 0.5 else [other, base]
        inputs.append((pair, {}))
    return inputs


def main():
    reference = load_reference(FOLDER).exact_match_explain
    rng = random.Random(SEED)
    cases = [(name, [e, a]) for name, e, a in HAND]
    for i in range(24):
        base = "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(0, 14)))
        other = mutate(rng, base)
        pair = [base, other] if rng.random() < 0.5 else [other, base]
        cases.append((f"random_{i:02d}", pair))

    write_hidden(FOLDER, cases, reference)


if __name__ == "__main__":
    main()
