# verdict: wrong_answer
# Mistake: treats the flags as exclusive categories, so a difference that NFC already fixes is not
# also reported as NFKC-only.
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
    nfc = differ and unicodedata.normalize("NFC", expected) == unicodedata.normalize("NFC", actual)
    nfkc = differ and unicodedata.normalize("NFKC", expected) == unicodedata.normalize("NFKC", actual)
    return {
        "match": match,
        "index": index,
        "expected_char": code(expected),
        "actual_char": code(actual),
        "whitespace_only": differ and expected.strip() == actual.strip(),
        "case_only": differ and expected.casefold() == actual.casefold(),
        "nfc_only": nfc,
        "nfkc_only": nfkc and not nfc,
    }
