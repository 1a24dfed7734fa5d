# verdict: wrong_answer
# Mistake: uses str.lower() for the case flag, so "Straße" against "STRASSE" is not case-only.
import unicodedata


def exact_match_explain(expected: str, actual: str) -> dict:
    match = expected == actual
    index = None
    if not match:
        index = 0
        while index < min(len(expected), len(actual)) and expected[index] == actual[index]:
            index += 1

    def code(text):
        return f"U+{ord(text[index]):04X}" if not match and index < len(text) else None

    def same(step):
        return not match and step(expected) == step(actual)

    return {
        "match": match,
        "index": index,
        "expected_char": code(expected),
        "actual_char": code(actual),
        "whitespace_only": same(str.strip),
        "case_only": same(str.lower),
        "nfc_only": same(lambda s: unicodedata.normalize("NFC", s)),
        "nfkc_only": same(lambda s: unicodedata.normalize("NFKC", s)),
    }
