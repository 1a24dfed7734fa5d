# verdict: wrong_answer
# Mistake: looks for the first difference with zip(), which stops at the shorter string, so when
# one text is a prefix of the other the index (and both characters) come back as None.
import unicodedata


def exact_match_explain(expected: str, actual: str) -> dict:
    match = expected == actual
    index = None
    for i, (e, a) in enumerate(zip(expected, actual)):
        if e != a:
            index = i
            break
    exp_char = f"U+{ord(expected[index]):04X}" if index is not None else None
    act_char = f"U+{ord(actual[index]):04X}" if index is not None else None
    differ = not match
    return {
        "match": match,
        "index": index,
        "expected_char": exp_char,
        "actual_char": act_char,
        "whitespace_only": differ and expected.strip() == actual.strip(),
        "case_only": differ and expected.casefold() == actual.casefold(),
        "nfc_only": differ
        and unicodedata.normalize("NFC", expected) == unicodedata.normalize("NFC", actual),
        "nfkc_only": differ
        and unicodedata.normalize("NFKC", expected) == unicodedata.normalize("NFKC", actual),
    }
