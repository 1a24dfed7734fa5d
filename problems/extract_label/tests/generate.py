"""Rebuild tests/hidden.json for extract_label.

Run from anywhere: python problems/extract_label/tests/generate.py
Expected values come from reference.py; the random cases use a fixed seed, so the output is stable.
"""

import random
from pathlib import Path

from judge.generation import load_reference, write_hidden

FOLDER = Path(__file__).resolve().parents[1]
SEED = 31337

SENTIMENT = ["positive", "negative", "neutral"]
GRADED = ["positive", "very positive", "negative", "very negative"]


HAND = [
    ("empty_answer", ["", SENTIMENT]),
    ("punctuation_only_answer", ["?!", SENTIMENT]),
    ("no_labels_given", ["positive", []]),
    ("empty_label_ignored", ["positive", ["", "positive"]]),
    ("equal_with_guillemets", ["«Neutral»", SENTIMENT]),
    ("equal_fullwidth", ["ＰＯＳＩＴＩＶＥ", SENTIMENT]),
    ("equal_case_kept_label", ["NEGATIVE", ["Positive", "Negative"]]),
    ("equal_beats_presence", ["very positive", GRADED]),
    ("sentence_with_label_kept_case", ["The answer is negative.", ["Positive", "Negative"]]),
    ("same_label_twice", ["positive, definitely positive", SENTIMENT]),
    ("three_labels", ["positive, negative or neutral", SENTIMENT]),
    ("longest_very_negative", ["It is very negative overall", GRADED]),
    ("both_very_labels", ["very positive and very negative", GRADED]),
    ("short_and_long_separate", ["positive at first, very negative later", GRADED]),
    ("nested_three_levels", ["x a b c", ["a b c", "b c", "c"]]),
    ("overlap_not_contained", ["I love new york city", ["new york", "york city"]]),
    ("overlap_not_contained_single", ["I love new york", ["new york", "york city"]]),
    ("label_inside_word", ["unpositively", SENTIMENT]),
    ("label_prefix_of_word", ["positively", SENTIMENT]),
    ("not_positive_limitation", ["not positive", SENTIMENT]),
    ("hyphen_boundary_limitation", ["non-negative", SENTIMENT]),
    ("underscore_glues", ["label_positive", SENTIMENT]),
    ("digit_glues", ["positive2", SENTIMENT]),
    ("accented_letter_glues", ["épositive", SENTIMENT]),
    ("yes_no_clear", ["Yes, I think so.", ["yes", "no"]]),
    ("yes_no_both", ["yes and no", ["yes", "no"]]),
    ("no_inside_words_only", ["Nobody knows", ["yes", "no"]]),
    ("thai_negative", ["ความรู้สึกเป็นลบ", ["บวก", "ลบ"]]),
    ("thai_both", ["บวกหรือลบ", ["บวก", "ลบ"]]),
    ("thai_equal", [" บวก ", ["บวก", "ลบ"]]),
    ("japanese_negative_anywhere", ["それはネガティブだ。", ["ポジティブ", "ネガティブ"]]),
    ("japanese_longest", ["とてもポジティブ", ["ポジティブ", "とてもポジティブ"]]),
    ("halfwidth_katakana_nfkc", ["ﾎﾟｼﾞﾃｨﾌﾞです", ["ポジティブ", "ネガティブ"]]),
    ("chinese_anywhere", ["我觉得是正面的", ["正面", "负面"]]),
    ("korean_needs_boundaries", ["이것은긍정", ["긍정", "부정"]]),
    ("korean_with_space", ["이것은 긍정", ["긍정", "부정"]]),
    ("cyrillic_whole_word", ["Ответ: да.", ["да", "нет"]]),
    ("cyrillic_inside_word", ["Ответ: надо", ["да", "нет"]]),
    ("latin_label_in_japanese", ["答えはpositiveです", ["positive", "negative"]]),
    ("mixed_label_anywhere", ["xyzポジティブabc", ["ポジティブ", "negative"]]),
    ("label_with_inner_punct", ["It is U.S.A.-based", ["u.s.a", "uk"]]),
    ("label_with_trailing_punct_normalized", ["The answer is positive", ["positive!", "negative?"]]),
    ("multiword_across_newline", ["very\npositive", GRADED]),
    ("casefold_label", ["STRASSE", ["Straße", "Weg"]]),
    ("minus_label", ["The answer is -1", ["-1", "+1"]]),
    ("plus_label", ["The answer is +1", ["-1", "+1"]]),
    ("minus_label_equal", ["-1", ["-1", "1"]]),
    ("digit_label_inside_number", ["The answer is 10", ["1", "0"]]),
    ("leading_underscore_trimmed", ["__positive", SENTIMENT]),
    ("single_letter_label_at_end", ["The answer is B", ["A", "B", "C", "D"]]),
    ("label_is_prefix_of_longer_label", ["I love New York City", ["new york", "new york city"]]),
    ("overlapping_occurrence_second_valid", ["x---", ["--", "++"]]),
]


def spaceless_edges(module):
    """One case per edge of each spaceless range: a label holding the code point just inside or just
    outside the edge, glued between letters in the answer, so only "matches anywhere" finds it."""
    cases = []
    for lo, hi in module.SPACELESS:
        for code in (lo - 1, lo, hi, hi + 1):
            label = f"a{chr(code)}b"
            cases.append((f"spaceless_edge_{code:04x}", [f"x{label}y", [label, "other"]]))
    return cases

WORDS = ["the", "answer", "is", "i", "think", "it's", "not", "very", "quite", "sentiment", "so",
         ",", ".", "!", "(", ")", '"', "—", "und", "とても", "です", "\n"]


FUZZ_LABELS = ["positive", "very positive", "negative", "very negative", "neutral", "Positive", "yes", "no",
               "a b c", "b c", "c", "new york", "york city", "บวก", "ลบ", "ポジティブ", "とてもポジティブ",
               "ネガティブ", "正面", "负面", "긍정", "да", "нет", "-1", "+1", "1", "0", "u.s.a", "Straße", "spam",
               "ham", "", "!?", "e", "i"]


FUZZ_LABELS = ["positive", "very positive", "negative", "very negative", "neutral", "Positive", "yes", "no",
               "a b c", "b c", "c", "new york", "york city", "บวก", "ลบ", "ポジティブ", "とてもポジティブ",
               "ネガティブ", "正面", "负面", "긍정", "да", "нет", "-1", "+1", "1", "0", "u.s.a", "Straße", "spam",
               "ham", "", "!?", "e", "i", "一", "က", "ក", "ก", "ぁ", "㐀", "very", "new york city", "--", "++",
               "aa"]


def fuzz_inputs(rng, count):
    """`count` random inputs as (args, kwargs) pairs, for the mutation test (judge/mutation/)."""
    module = load_reference(FOLDER)
    # Code points on both sides of each edge of the spaceless ranges.
    edges = [chr(c) for lo, hi in module.SPACELESS for c in (lo - 1, lo, hi, hi + 1)]
    inputs = []
    while len(inputs) < count:
        labels = rng.sample(FUZZ_LABELS, rng.randint(0, 5))
        if rng.random() < 0.4:
            labels.append(rng.choice(["", "a", "ab"]) + rng.choice(edges) + rng.choice(["", "b"]))
        normalized = [module._normalize(label) for label in labels if module._normalize(label)]
        if len(set(normalized)) != len(normalized):
            continue  # the statement promises labels distinct after normalization
        words = [rng.choice(WORDS + ["a", "b", "york", "city", "x", "---", "aaa"]) for _ in range(rng.randrange(0, 6))]
        for _ in range(rng.choice([0, 1, 1, 2, 2, 3])):
            label = rng.choice(labels) if labels and rng.random() < 0.8 else rng.choice(FUZZ_LABELS)
            label = rng.choice([label, label.upper(), label + rng.choice(["ly", "s", "", "!", "_"]),
                                rng.choice(["un", "_", "(", "", "«"]) + label])
            words.insert(rng.randrange(len(words) + 1), label)
        joiner = rng.choice([" ", " ", " ", "", "", ", ", "\n"])
        inputs.append(([joiner.join(words), labels], {}))
    return inputs


def main():
    module = load_reference(FOLDER)
    reference = module.extract_label
    rng = random.Random(SEED)
    cases = list(HAND) + spaceless_edges(module)
    label_sets = [SENTIMENT, GRADED, ["Positive", "Negative"], ["yes", "no"], ["บวก", "ลบ"],
                  ["ポジティブ", "ネガティブ", "ニュートラル"], ["spam", "ham"]]
    for i in range(26):
        labels = rng.choice(label_sets)
        words = [rng.choice(WORDS) for _ in range(rng.randrange(0, 6))]
        chosen = rng.choice(labels)
        for _ in range(rng.choice([0, 1, 1, 1, 2, 2])):
            label = chosen if rng.random() < 0.6 else rng.choice(labels)
            label = rng.choice([label, label.upper(), label + rng.choice(["ly", "s", ""])])
            words.insert(rng.randrange(len(words) + 1), label)
        joiner = "" if labels[0] in ("บวก", "ポジティブ") and rng.random() < 0.5 else " "
        cases.append((f"random_{i:02d}", [joiner.join(words), list(labels)]))

    for name, args in cases:  # the statement promises labels distinct after normalization
        normalized = [module._normalize(label) for label in args[1] if module._normalize(label)]
        assert len(set(normalized)) == len(normalized), name
    write_hidden(FOLDER, cases, reference)


if __name__ == "__main__":
    main()
