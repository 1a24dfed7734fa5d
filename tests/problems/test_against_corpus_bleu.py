"""corpus_bleu's reference against sacreBLEU's corpus_bleu on generated corpora (13a tokens, no
smoothing), with a variable number of references per sentence."""

from __future__ import annotations

import logging
import random

import pytest

from tests.problems.test_against_libraries import (
    CASES,
    SEED,
    TOLERANCE,
    _assert_agree,
    _reference,
    _require,
    _text_case,
)

Corpus = tuple[list[str], list[list[str]]]


def _corpus(rng: random.Random) -> Corpus:
    size = rng.choice((1, 1, 2, 3, rng.randint(1, 10), rng.randint(5, 30)))
    sentences = [_text_case(rng, max_references=4) for _ in range(size)]
    return [hypothesis for hypothesis, _ in sentences], [references for _, references in sentences]


def _streams(references: list[list[str]]) -> list[list[str | None]]:
    """sacreBLEU wants reference streams: stream j holds the j-th reference of every sentence,
    None where a sentence has fewer references (it drops those)."""
    width = max(len(refs) for refs in references)
    return [[refs[j] if j < len(refs) else None for refs in references] for j in range(width)]


def test_corpus_bleu_matches_sacrebleu(caplog: pytest.LogCaptureFixture) -> None:
    sacrebleu = _require("sacrebleu")
    corpus_bleu = _reference("corpus_bleu")
    rng = random.Random(SEED)
    cases = [_corpus(rng) for _ in range(CASES)]
    assert any(len({len(refs) for refs in case[1]}) > 1 for case in cases), "vary the reference counts"
    # The statement's settings spelled out: 13a, case-sensitive, no smoothing, all four orders.
    metric = sacrebleu.BLEU(tokenize="13a", lowercase=False, smooth_method="none", effective_order=False,
                            max_ngram_order=4)
    caplog.set_level(logging.ERROR, logger="sacrebleu")
    _assert_agree(cases, lambda case: corpus_bleu(*case),
                  lambda case: metric.corpus_score(case[0], _streams(case[1])).score / 100)


def test_corpus_bleu_is_not_the_mean_of_sentence_scores() -> None:
    sacrebleu = _require("sacrebleu")
    corpus_bleu = _reference("corpus_bleu")
    hypotheses = ["the cat sat on the mat", "it rained."]
    references = [["the cat sat on a mat"], ["it rained all day .", "it was raining ."]]
    mean = sum(sacrebleu.sentence_bleu(h, r).score / 100 for h, r in zip(hypotheses, references, strict=True)) / 2
    assert corpus_bleu(hypotheses, references) == pytest.approx(0.456491, abs=1e-6)
    assert mean == pytest.approx(0.494336, abs=1e-6)


def test_corpus_bleu_statement_errors() -> None:
    corpus_bleu = _reference("corpus_bleu")
    # The statement defines these as errors; sacreBLEU has no per-sentence reference lists to
    # compare them with (its streams pad missing references with None), so they are pinned here.
    for hypotheses, references in (([], []), (["a"], []), (["a b"], [["a b"], ["c"]]), (["a", "b"], [["a"], []])):
        with pytest.raises(ValueError):
            corpus_bleu(hypotheses, references)
    assert corpus_bleu(["a b c"], [["a b c"]]) == pytest.approx(0.0, abs=TOLERANCE)
