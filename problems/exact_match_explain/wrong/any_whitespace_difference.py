# verdict: wrong_answer
# Mistake: flags any whitespace difference, including inside the text, as whitespace-only
# (compares the texts with every whitespace character removed instead of using strip()).
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

    differ = not match
    return {
        "match": match,
        "index": index,
        "expected_char": code(expected),
        "actual_char": code(actual),
        "whitespace_only": differ and "".join(expected.split()) == "".join(actual.split()),
        "case_only": differ and expected.casefold() == actual.casefold(),
        "nfc_only": differ
        and unicodedata.normalize("NFC", expected) == unicodedata.normalize("NFC", actual),
        "nfkc_only": differ
        and unicodedata.normalize("NFKC", expected) == unicodedata.normalize("NFKC", actual),
    }
