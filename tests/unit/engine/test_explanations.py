from __future__ import annotations

from judge.checkers import CheckerSpec, FloatParams
from judge.explanations import explain, explain_changed_argument
from sandbox.inside.codec import Opaque

FLOAT = CheckerSpec("float", FloatParams(abs_tol=1e-9, rel_tol=1e-9))
EXACT = CheckerSpec("exact")


def why(expected: object, actual: object, spec: CheckerSpec = EXACT) -> str:
    mismatch = spec.check(expected, actual)
    assert mismatch is not None
    return explain(mismatch)


def test_float_off_by_how_much_against_the_tolerance() -> None:
    text = why(0.477688, 0.5, FLOAT)
    assert text == "expected 0.477688, got 0.5: off by 0.0223 (allowed 1e-09)"


def test_percentage_is_recognised() -> None:
    assert "looks like a percentage" in why(0.4776, 47.76, FLOAT)
    assert "percentage" not in why(0.4776, 0.5, FLOAT)


def test_wrong_types() -> None:
    assert why(1.0, 1, FLOAT).startswith("wrong type: expected float, got int (1); return a float")
    assert "got str ('0.5'); return the number itself" in why(0.5, "0.5", FLOAT)
    numpy_text = why(0.5, Opaque("numpy.float64", "np.float64(0.5)"), FLOAT)
    assert "got numpy.float64" in numpy_text and "numpy scalar" in numpy_text
    assert "expected tuple, got list" in why((0.1, 0.2), [0.1, 0.2], FLOAT)


def test_string_first_difference_with_code_points() -> None:
    text = why("cat sat", "cat\u00a0sat")
    assert "first difference at index 3: expected U+0020 SPACE, got U+00A0 NO-BREAK SPACE" in text


def test_string_past_the_end() -> None:
    assert "index 3: expected end of text, got U+0021 EXCLAMATION MARK" in why("abc", "abc!")


def test_string_difference_kinds() -> None:
    assert "only in leading or trailing whitespace" in why("paris", " paris\n")
    assert "only in letter case" in why("Paris", "paris")
    assert "only in Unicode composition (equal after NFC" in why("caf\u00e9", "cafe\u0301")
    assert "only in Unicode compatibility forms (equal after NFKC)" in why("ABC", "\uff21\uff22\uff23")
    assert "only" not in why("paris", "london")


def test_nested_paths_and_shapes() -> None:
    assert why([1, 2], [1, 3]).startswith("at [1]: expected 2, got 3")
    assert why([1, 2], [1]) == "expected 2 items, got 1"
    assert why({"f1": 1.0}, {}) == "missing key ['f1']"


def test_mutation_names_the_argument() -> None:
    text = explain_changed_argument("candidate", ["a", "b"], ["b", "a"])
    assert "changed its argument 'candidate'" in text and "['a', 'b']" in text and "['b', 'a']" in text
