# verdict: wrong_answer
# Mistake: formats the code point without zero padding ("U+74" instead of "U+0074").
import unicodedata


def exact_match_explain(expected: str, actual: str) -> dict:
    match = expected == actual
    index = None
    if not match:
        index = 0
        while index < min(len(expected), len(actual)) and expected[index] == actual[index]:
            index += 1

    def code(text):
        if match or index >= len(text):
            return None
        return "U+" + hex(ord(text[index]))[2:].upper()

    differ = not match
    return {
        "match": match,
        "index": index,
        "expected_char": code(expected),
        "actual_char": code(actual),
        "whitespace_only": differ and expected.strip() == actual.strip(),
        "case_only": differ and expected.casefold() == actual.casefold(),
        "nfc_only": differ
        and unicodedata.normalize("NFC", expected) == unicodedata.normalize("NFC", actual),
        "nfkc_only": differ
        and unicodedata.normalize("NFKC", expected) == unicodedata.normalize("NFKC", actual),
    }
