"""Cross-check reference solutions against well-known independent implementations.

Each comparison runs a problem's reference.py and a library (nltk, sacreBLEU, rouge-score, SciPy,
scikit-learn) on at least CASES inputs from a seeded generator and requires agreement within
TOLERANCE. Where a library and a problem's statement (the seed) disagree, the statement wins: such
cases are pinned to the statement's value, with the reason. Outside CI a missing library skips its
test; with CI=true it fails.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
import math
import os
import random
import re
import tomllib
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

import pytest

PROBLEMS = Path(__file__).resolve().parents[2] / "problems"
SEED = 20240611
CASES = 600
TOLERANCE = 1e-9

Case = TypeVar("Case")
Value = float | tuple[float, ...]

# Building blocks of generated inputs. Non-ASCII characters are escaped so the source stays
# unambiguous; the comments say what they are.
WORDS = ("the", "The", "THE", "cat", "Cat", "sat", "on", "mat", "a", "refund", "status", "page", "is",
         "down", "don't", "e-mail", "refund-status", "snake_case", "42")
UNICODE = (
    "caf\u00e9", "cafe\u0301",  # e-acute precomposed, and e + combining acute
    "na\u00efve", "stra\u00dfe", "strasse", "\u0130stanbul",  # sharp s; capital I with dot above
    "\u03a9mega", "\u043c\u0438\u0440", "\u05e9\u05dc\u05d5\u05dd",  # Greek, Cyrillic, Hebrew
    "\u6771\u4eac", "\u5927\u304d\u3044", "\u306f",  # CJK and kana
    "\U0001f44d", "\U0001f469\u200d\U0001f4bb", "\U0001f1eb\U0001f1f7",  # emoji: thumb, ZWJ sequence, flag
    "e\u0301\u0301", "a\u200bb", "\u0301",  # stacked combining marks, zero-width space, a lone mark
    "\u0663.\u0665", "x\u00b2", "\u216b", "\u00bd",  # Arabic-Indic 3.5, x squared, Roman twelve, one half
)
PUNCTUATION = (
    ".", ",", "!", "?", "(", ")", "_", "-", "--", "$", "'", ":", ";", '"', "&", "/", "@", "#", "...",
    "\u2026", "\u00ab", "\u00bb", "\u2014", "\u00bf",  # ellipsis, guillemets, em dash, inverted question mark
    "5.", ".5", "..5", "3.14", "1,000", "2-3", "a-3", "-3", "x--y", "U.S.A.", "$42.00.", "(v2.0)",
)
ATOMS = WORDS + UNICODE + PUNCTUATION
# 13a's string-level steps; only meaningful inside texts.
MARKUP = ("<skipped>", "&quot;", "&amp;", "&amp;lt;", "&lt;", "&gt;", "&AMP;", "-\n", "-\n")
TEXT_ATOMS = ATOMS + MARKUP
SEPARATORS = (
    " ", " ", " ", "  ", "", "\t", "\n", "-\n",
    "\u00a0", "\u3000", "\u2028", "\x1f",  # no-break space, ideographic space, line separator, unit separator
)
# Tokens that only an API taking lists of strings can carry (sacreBLEU splits strings on whitespace).
ODD_TOKENS = ("", " ", "\t", "a ", " a", "\n")
TINY = ("a", "b", "c")  # few distinct tokens: many repeats, so clipping matters
SPLITTABLE = tuple(atom for atom in ATOMS if atom.split() == [atom])
LABELS = ("pos", "neg", "neu", "Positive", "positive", "caf\u00e9", "cafe\u0301", "\u6771\u4eac",
          "\U0001f44d", "", " ")
# [^\W_] is exactly str.isalnum, which in Python 3.11 is exactly "category starts with L or N".
WORD_RUN = re.compile(r"[^\W_]+")


def _require(module: str) -> ModuleType:
    """Import a library: a missing one fails the test under CI=true and skips it elsewhere."""
    if os.environ.get("CI", "").lower() == "true":
        try:
            return importlib.import_module(module)
        except ImportError as exc:
            pytest.fail(f"CI needs {module} (install the dev extra): {exc}")
    library: ModuleType = pytest.importorskip(module)
    return library


def _reference(slug: str) -> Callable[..., Any]:
    """The function that problems/<slug>/reference.py defines, as named in its problem.toml."""
    folder = PROBLEMS / slug
    name = tomllib.loads((folder / "problem.toml").read_text("utf-8"))["function"]["name"]
    spec = importlib.util.spec_from_file_location(f"reference_{slug}", folder / "reference.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, name)  # type: ignore[no-any-return]


def _floats(value: Value) -> tuple[float, ...]:
    return tuple(map(float, value)) if isinstance(value, tuple) else (float(value),)


def _assert_agree(cases: Sequence[Case], ours: Callable[[Case], Value],
                  theirs: Callable[[Case], Value]) -> None:
    """ours and theirs agree within TOLERANCE on every case; prints the largest difference."""
    assert len(cases) >= CASES
    worst = 0.0
    failures = []
    for case in cases:
        mine, library = _floats(ours(case)), _floats(theirs(case))
        pairs = list(zip(mine, library, strict=True))
        worst = max([worst, *(abs(a - b) for a, b in pairs)])
        if not all(math.isclose(a, b, rel_tol=0.0, abs_tol=TOLERANCE) for a, b in pairs):
            failures.append(f"{case!r}: reference {mine}, library {library}")
    print(f"{len(cases)} inputs, largest difference {worst:.3g}")
    assert not failures, f"{len(failures)} of {len(cases)} disagree:\n" + "\n".join(failures[:5])


def _cases(make: Callable[[random.Random], Case]) -> list[Case]:
    rng = random.Random(SEED)
    return [make(rng) for _ in range(CASES)]


def _length(rng: random.Random) -> int:
    return rng.choice((0, 1, 1, 2, 3, rng.randint(1, 8), rng.randint(4, 20), rng.randint(10, 40)))


def _tokens(rng: random.Random, pool: Sequence[str]) -> list[str]:
    return [rng.choice(pool) for _ in range(_length(rng))]


def _variant(rng: random.Random, tokens: list[str], pool: Sequence[str]) -> list[str]:
    """A copy of tokens with drops, repeats, substitutions, a swap and an extension: it overlaps."""
    if rng.random() < 0.2:
        return _tokens(rng, pool)  # unrelated
    out: list[str] = []
    for token in tokens:
        roll = rng.random()
        if roll < 0.1:
            continue
        out.extend([token, token] if roll < 0.2 else [rng.choice(pool) if roll < 0.3 else token])
    if len(out) > 1 and rng.random() < 0.3:
        i = rng.randrange(len(out) - 1)
        out[i], out[i + 1] = out[i + 1], out[i]
    return out + _tokens(rng, pool) if rng.random() < 0.2 else out


def _text(rng: random.Random, tokens: list[str]) -> str:
    """Tokens glued with random separators, sometimes with leading or trailing ones."""
    lead = rng.choice(SEPARATORS) if rng.random() < 0.2 else ""
    return lead + "".join(token + rng.choice(SEPARATORS) for token in tokens)


def _token_pair(rng: random.Random, pool: Sequence[str]) -> tuple[list[str], list[str]]:
    reference = _tokens(rng, pool)
    return reference, _variant(rng, reference, pool)


def _text_case(rng: random.Random, max_references: int) -> tuple[str, list[str]]:
    """A hypothesis and 1 to max_references references, all variants of one token list."""
    base = _tokens(rng, TEXT_ATOMS)
    references = [_text(rng, _variant(rng, base, TEXT_ATOMS)) for _ in range(rng.randint(1, max_references))]
    return _text(rng, _variant(rng, base, TEXT_ATOMS)), references


def test_bleu_1gram_matches_nltk(recwarn: pytest.WarningsRecorder) -> None:
    bleu_score = _require("nltk.translate.bleu_score")
    bleu_1gram = _reference("bleu_1gram")
    # nltk takes any list of strings, so empty, whitespace and padded tokens are fair game too.
    pools = (TINY, WORDS, ATOMS, ATOMS + ODD_TOKENS)
    cases = _cases(lambda rng: _token_pair(rng, rng.choice(pools)))
    recwarn.clear()  # only the comparison must be silent, not importing nltk
    # weights=(1,) computes the unigram order only. Empty candidates, empty references and pairs
    # without any match all take nltk's "no unigram match" shortcut, which returns 0 exactly as
    # the statement's rules do, so no case needs pinning. (weights=(1, 0, 0, 0) gives the same
    # numbers but warns about every higher order without matches.)
    _assert_agree(cases, lambda case: bleu_1gram(*case),
                  lambda case: bleu_score.sentence_bleu([case[0]], case[1], weights=(1,)))
    assert not recwarn.list, [str(w.message) for w in recwarn.list]


def test_bleu_2_matches_sacrebleu(caplog: pytest.LogCaptureFixture) -> None:
    sacrebleu = _require("sacrebleu")
    bleu_2 = _reference("bleu_2")
    # sacreBLEU takes strings and splits them on whitespace, so its tokens are the atoms that
    # survive a join and a split: non-empty, without whitespace.
    cases = _cases(lambda rng: _token_pair(rng, rng.choice((TINY, SPLITTABLE))))
    metric = sacrebleu.BLEU(tokenize="none", max_ngram_order=2, smooth_method="none", effective_order=False)
    caplog.set_level(logging.ERROR, logger="sacrebleu")  # it recommends effective order on every call
    _assert_agree(cases, lambda case: bleu_2(*case),
                  lambda case: metric.sentence_score(" ".join(case[1]), [" ".join(case[0])]).score / 100)


def test_tokenize_13a_matches_sacrebleu() -> None:
    tokenizer = _require("sacrebleu.tokenizers.tokenizer_13a").Tokenizer13a()
    tokenize_13a = _reference("tokenize_13a")
    statement_examples = ["", " \t\n", "x ..5", "a-\nb", "a -\nb", "2-3 a-3 -3 x--y", "1.5.2 U.S.A.",
                          "&amp;lt; &AMP;", "\u0663.\u0665 3.5", "a\u200bb\u00a0c",
                          "The refund-status page (v2.0) isn't_ready, costs $42.00."]
    texts = statement_examples + _cases(lambda rng: _text(rng, _tokens(rng, TEXT_ATOMS)))
    assert len(texts) >= CASES
    # sacreBLEU returns the tokens joined by single spaces; no token contains whitespace.
    mismatches = [text for text in texts if tokenize_13a(text) != tokenizer(text).split()]
    assert not mismatches, [(text, tokenize_13a(text), tokenizer(text)) for text in mismatches[:5]]


def test_sentence_bleu_matches_sacrebleu() -> None:
    sacrebleu = _require("sacrebleu")
    sentence_bleu = _reference("sentence_bleu")
    cases = _cases(lambda rng: _text_case(rng, max_references=4))
    _assert_agree(cases, lambda case: sentence_bleu(*case),
                  lambda case: sacrebleu.sentence_bleu(*case).score / 100)


def test_chrf_matches_sacrebleu() -> None:
    sacrebleu = _require("sacrebleu")
    chrf = _reference("chrf")
    cases = _cases(lambda rng: _text_case(rng, max_references=3))
    # The statement's rules are sacreBLEU's defaults, spelled out here so a change of default shows up.
    settings = {"char_order": 6, "word_order": 0, "beta": 2, "remove_whitespace": True,
                "eps_smoothing": False}
    _assert_agree(cases, lambda case: chrf(*case),
                  lambda case: sacrebleu.sentence_chrf(*case, **settings).score / 100)


class StatementTokenizer:
    """The rouge_l_f1 statement's tokens for rouge_score: lowercase, then runs of letters and numbers."""

    def tokenize(self, text: str) -> list[str]:
        return WORD_RUN.findall(text.lower())


def test_rouge_l_f1_matches_rouge_score() -> None:
    rouge_scorer = _require("rouge_score.rouge_scorer")
    rouge_l_f1 = _reference("rouge_l_f1")
    scorer = rouge_scorer.RougeScorer(["rougeL"], tokenizer=StatementTokenizer())

    def make(rng: random.Random) -> tuple[str, str]:
        output, expected = _token_pair(rng, rng.choice((WORDS, ATOMS, UNICODE)))
        return _text(rng, output), _text(rng, expected)

    _assert_agree(_cases(make), lambda case: rouge_l_f1(*case),
                  lambda case: scorer.score(case[1], case[0])["rougeL"].fmeasure)


def test_wilson_interval_matches_scipy() -> None:
    stats = _require("scipy.stats")
    wilson_interval = _reference("wilson_interval")

    def make(rng: random.Random) -> tuple[int, int, float | None]:
        n = rng.choice((1, 2, 3, rng.randint(1, 30), rng.randint(1, 30), rng.randint(30, 5000)))
        z = None if rng.random() < 0.5 else rng.choice((1.645, 2.576, rng.uniform(0.1, 4.0)))
        return rng.choice((0, n, rng.randint(0, n), rng.randint(0, n))), n, z

    def ours(case: tuple[int, int, float | None]) -> Value:
        correct, n, z = case
        if z is None:  # the default z = 1.96
            return tuple(wilson_interval(correct, n))
        return tuple(wilson_interval(correct, n, z=z))

    def theirs(case: tuple[int, int, float | None]) -> Value:
        correct, n, z = case
        # SciPy takes a confidence level and recovers z as the normal quantile of (1 + level) / 2;
        # this level makes that z the problem's own (1.96 by default) up to rounding, ~1e-12 at most.
        level = 2 * stats.norm.cdf(1.96 if z is None else z) - 1
        interval = stats.binomtest(correct, n).proportion_ci(confidence_level=level, method="wilson")
        return interval.low, interval.high

    _assert_agree(_cases(make), ours, theirs)
    for correct, n in ((0, 0), (0, -1), (-1, 5), (6, 5)):  # both refuse what is not a proportion
        for function in (wilson_interval, stats.binomtest):
            with pytest.raises(ValueError):
                function(correct, n)


def test_classification_f1_matches_scikit_learn() -> None:
    f1_score = _require("sklearn.metrics").f1_score
    classification_f1 = _reference("classification_f1")

    def make(rng: random.Random) -> tuple[list[str], list[str], str, list[str] | None]:
        classes = rng.sample(LABELS, rng.randint(1, 5))
        y_true = [rng.choice(classes) for _ in range(rng.randint(1, 30))]  # empty lists: pinned below
        y_pred = [label if rng.random() < 0.6 else rng.choice(LABELS) for label in y_true]
        labels = None if rng.random() < 0.4 else rng.sample(LABELS, rng.randint(1, 6))
        if labels is not None and rng.random() < 0.3:
            labels += rng.choices(labels, k=rng.randint(1, 3))  # duplicates count once
        return y_true, y_pred, rng.choice(("macro", "micro", "weighted")), labels

    def theirs(case: tuple[list[str], list[str], str, list[str] | None]) -> float:
        y_true, y_pred, average, labels = case
        # The statement's classes: without labels, the distinct gold labels (scikit-learn would add
        # labels seen only in y_pred); with labels, each listed label once (scikit-learn would
        # average a duplicate twice). So the classes are always passed explicitly.
        classes = sorted(set(y_true)) if labels is None else list(dict.fromkeys(labels))
        return float(f1_score(y_true, y_pred, average=average, labels=classes, zero_division=0))

    _assert_agree(_cases(make), lambda case: classification_f1(*case), theirs)


@pytest.mark.parametrize("average", ["macro", "micro", "weighted"])
def test_classification_f1_seed_rules_where_scikit_learn_differs(average: str) -> None:
    classification_f1 = _reference("classification_f1")
    # scikit-learn raises ValueError on empty inputs; the statement defines 0.0 ("Two empty lists").
    assert classification_f1([], [], average) == pytest.approx(0.0, abs=TOLERANCE)
    assert classification_f1([], [], average, ["a", "b"]) == pytest.approx(0.0, abs=TOLERANCE)
    # "A label listed twice counts once": macro F1 over {a: 1.0, b: 0.0} is 0.5, while scikit-learn,
    # given labels=["a", "a", "b"], averages 1.0 twice and gets 2/3. Micro and weighted agree anyway.
    expected = {"macro": 0.5, "micro": 1.0, "weighted": 1.0}[average]
    assert classification_f1(["a", "a"], ["a", "a"], average, ["a", "a", "b"]) == pytest.approx(
        expected, abs=TOLERANCE)
