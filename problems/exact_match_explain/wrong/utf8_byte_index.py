# verdict: wrong_answer
# Mistake: finds the first difference in the UTF-8 bytes, so the index counts bytes, not code
# points, as soon as a non-ASCII character comes before the difference.
import unicodedata


def exact_match_explain(expected: str, actual: str) -> dict:
    match = expected == actual
    index = None
    exp_char = act_char = None
    if not match:
        eb, ab = expected.encode("utf-8"), actual.encode("utf-8")
        index = 0
        while index < min(len(eb), len(ab)) and eb[index] == ab[index]:
            index += 1
        # step back to the start of the character that contains the differing byte
        start = index
        while start > 0 and start < len(eb) and (eb[start] & 0xC0) == 0x80:
            start -= 1
        exp_rest = eb[start:].decode("utf-8", "replace")
        act_rest = ab[start:].decode("utf-8", "replace")
        exp_char = f"U+{ord(exp_rest[0]):04X}" if exp_rest else None
        act_char = f"U+{ord(act_rest[0]):04X}" if act_rest else None
        index = start
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
