"""rouge_lsum's reference against rouge_score's "rougeLsum" (default tokenizer, no stemming,
sentences split on newlines) on generated multi-sentence texts."""

from __future__ import annotations

import random

from tests.problems.test_against_libraries import (
    ATOMS,
    CASES,
    SEED,
    TINY,
    UNICODE,
    WORDS,
    _assert_agree,
    _reference,
    _require,
    _text,
    _tokens,
    _variant,
)


def _summary(rng: random.Random, sentences: list[list[str]]) -> str:
    """Sentences joined by newlines, sometimes with blank or whitespace-only lines between."""
    return rng.choice(("\n", "\n", "\n\n", "\n \n", "\r\n")).join(_text(rng, s) for s in sentences)


def _case(rng: random.Random) -> tuple[str, str]:
    pool = rng.choice((TINY, WORDS, ATOMS, WORDS + UNICODE))
    reference = [_tokens(rng, pool) for _ in range(rng.choice((1, 1, 2, 3, rng.randint(1, 8))))]
    candidate = [_variant(rng, sentence, pool) for sentence in reference]
    rng.shuffle(candidate)
    if rng.random() < 0.3:  # split or merge candidate sentences
        flat = [token for sentence in candidate for token in sentence]
        cut = sorted(rng.sample(range(len(flat) + 1), k=min(len(flat) + 1, rng.randint(1, 3))))
        candidate = [flat[a:b] for a, b in zip([0, *cut], [*cut, len(flat)], strict=True)]
    return _summary(rng, reference), _summary(rng, candidate)


def test_rouge_lsum_matches_rouge_score() -> None:
    rouge_scorer = _require("rouge_score.rouge_scorer")
    rouge_lsum = _reference("rouge_lsum")
    # The statement's rules are rouge_score's defaults: its ASCII tokenizer, no stemmer, and
    # sentences split on "\n" (split_summaries=False).
    scorer = rouge_scorer.RougeScorer(["rougeLsum"], use_stemmer=False, split_summaries=False)
    rng = random.Random(SEED)
    cases = [_case(rng) for _ in range(CASES)]
    _assert_agree(cases, lambda case: rouge_lsum(*case),
                  lambda case: float(scorer.score(case[0], case[1])["rougeLsum"].fmeasure))
