"""Winnowing over normalized Python tokens: renaming and re-commenting a solution does not hide
it, a different algorithm for the same function is not alike, and odd input never breaks it."""

from __future__ import annotations

import pytest

from judge.similarity import Match, compare, compare_code, fingerprints, tokens

STARTER = "def token_f1(prediction, reference):\n    ...\n"
COUNTER = """from collections import Counter


def token_f1(prediction, reference):
    pred = prediction.split()
    ref = reference.split()
    common = Counter(pred) & Counter(ref)
    same = sum(common.values())
    if same == 0:
        return 0.0
    precision = same / len(pred)
    recall = same / len(ref)
    return 2 * precision * recall / (precision + recall)
"""
# COUNTER with every name changed, a comment, blank lines and other string and number constants.
RENAMED = """from collections import Counter

def token_f1(prediction, reference):
    # split into words first
    p_toks = prediction.split( )
    r_toks = reference.split()

    overlap = Counter(p_toks) & Counter(r_toks)
    n = sum(overlap.values())
    if n == 0:
        return 0.00
    prec = n / len(p_toks)
    rec = n / len(r_toks)
    return 2 * prec * rec / (prec + rec)
"""
# The same function by another method: a loop that removes matched words.
LOOP = """def token_f1(prediction, reference):
    left = prediction.split()
    right = list(reference.split())
    matched = 0
    for word in left:
        if word in right:
            right.remove(word)
            matched += 1
    if not matched:
        return 0.0
    p, r = matched / len(left), matched / len(reference.split())
    return 2 * p * r / (p + r)
"""
LCS_TABLE = """def lcs_length(a, b):
    rows = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            if a[i - 1] == b[j - 1]:
                rows[i][j] = rows[i - 1][j - 1] + 1
            else:
                rows[i][j] = max(rows[i - 1][j], rows[i][j - 1])
    return rows[len(a)][len(b)]
"""
LCS_RECURSIVE = """import functools

def lcs_length(a, b):
    @functools.lru_cache(maxsize=None)
    def go(i, j):
        if i == len(a) or j == len(b):
            return 0
        if a[i] == b[j]:
            return 1 + go(i + 1, j + 1)
        return max(go(i + 1, j), go(i, j + 1))
    return go(0, 0)
"""


def test_identifiers_strings_and_numbers_are_normalized_and_comments_dropped() -> None:
    assert [t.text for t in tokens("total = count + 1.5  # note\nname = 'x'\n")] == [
        "V", "=", "V", "+", "N", "V", "=", "S"]
    assert [t.text for t in tokens("for x in y:\n    pass\n")] == ["for", "V", "in", "V", ":", "pass"]


def test_renamed_variables_score_high_and_match_the_whole_body() -> None:
    result = compare_code(COUNTER, RENAMED, STARTER)
    assert result.similarity >= 0.9
    # Every line of the function body is covered, from the import to the return.
    assert result.matches[0].a_lines[0] <= 1 and result.matches[-1].a_lines[1] == 13
    assert result.matches[-1].b_lines[1] == 14


def test_a_different_algorithm_scores_low() -> None:
    assert compare_code(COUNTER, LOOP, STARTER).similarity < 0.4
    assert compare_code(LCS_TABLE, LCS_RECURSIVE).similarity < 0.2


def test_a_solution_copied_into_a_longer_one_still_scores_high() -> None:
    padded = RENAMED + "\n\ndef unused(a, b):\n    return [x for x in a if x not in b]\n"
    assert compare_code(COUNTER, padded, STARTER).similarity >= 0.9


def test_the_starter_alone_makes_nothing_alike() -> None:
    assert compare_code(STARTER, STARTER).similarity == 1.0
    assert compare_code(STARTER, STARTER, STARTER).similarity == 0.0
    assert compare_code(STARTER, STARTER, STARTER).matches == ()


@pytest.mark.parametrize("code", ["", "\n\n", "# only a comment\n", "x", "def f(:\n", "'''unclosed",
                                  "if True:\n  x = 1\n    y = 2\n", "\x00", "def f():\n\treturn 1\n"])
def test_tiny_or_broken_code_does_not_explode(code: str) -> None:
    for other in (code, COUNTER, ""):
        result = compare_code(code, other)
        assert 0.0 <= result.similarity <= 1.0
        assert all(1 <= m.a_lines[0] <= m.a_lines[1] and 1 <= m.b_lines[0] <= m.b_lines[1]
                   for m in result.matches)


def test_code_shorter_than_a_k_gram_is_one_fingerprint() -> None:
    assert len(fingerprints("return x")) == 1
    assert compare_code("y = 1", "z = 2").similarity == 1.0  # the same shape, after normalizing
    assert compare_code("y = 1", "while z: pass").similarity == 0.0


def test_matches_are_merged_runs_in_order() -> None:
    a = fingerprints(COUNTER)
    result = compare(a, a)
    assert result.similarity == 1.0
    assert result.matches == (Match((1, 13), (1, 13)),)


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        fingerprints(COUNTER, k=0)
