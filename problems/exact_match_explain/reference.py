import unicodedata


def _code(text, index):
    if index >= len(text):
        return None
    return f"U+{ord(text[index]):04X}"


def exact_match_explain(expected: str, actual: str) -> dict:
    """Compare two texts code point by code point and explain the first difference."""
    match = expected == actual
    index = None
    if not match:
        index = 0
        limit = min(len(expected), len(actual))
        while index < limit and expected[index] == actual[index]:
            index += 1
    differ = not match
    return {
        "match": match,
        "index": index,
        "expected_char": None if match else _code(expected, index),
        "actual_char": None if match else _code(actual, index),
        "whitespace_only": differ and expected.strip() == actual.strip(),
        "case_only": differ and expected.casefold() == actual.casefold(),
        "nfc_only": differ
        and unicodedata.normalize("NFC", expected) == unicodedata.normalize("NFC", actual),
        "nfkc_only": differ
        and unicodedata.normalize("NFKC", expected) == unicodedata.normalize("NFKC", actual),
    }
