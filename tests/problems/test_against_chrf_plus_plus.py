"""chrf_plus_plus's reference against sacreBLEU's CHRF(word_order=2) on generated texts."""

from __future__ import annotations

import random

from tests.problems.test_against_libraries import (
    ATOMS,
    CASES,
    SEED,
    _assert_agree,
    _reference,
    _require,
    _text,
    _text_case,
    _tokens,
    _variant,
)


def _hand_tokenized_case(rng: random.Random) -> tuple[str, list[str]]:
    """Texts whose words carry punctuation at either end, against spaced-out versions of them:
    this is where chrF++'s one-character split decides the word n-grams."""
    base = [rng.choice(("(", '"', "'", "")) + token + rng.choice((")", ".", "!", "?!", "", ""))
            for token in _tokens(rng, ATOMS)]
    references = [_text(rng, _variant(rng, base, ATOMS)) for _ in range(rng.randint(1, 3))]
    hypothesis = " ".join(" ".join(token) if rng.random() < 0.2 else token for token in base)
    return hypothesis, references


def test_chrf_plus_plus_matches_sacrebleu() -> None:
    metrics = _require("sacrebleu.metrics")
    chrf_plus_plus = _reference("chrf_plus_plus")
    rng = random.Random(SEED)
    cases = [_text_case(rng, max_references=3) if i % 2 else _hand_tokenized_case(rng) for i in range(CASES)]
    # The statement's rules are sacreBLEU's chrF++, spelled out here so a change of default shows up.
    metric = metrics.CHRF(char_order=6, word_order=2, beta=2, lowercase=False, whitespace=False,
                          eps_smoothing=False)
    _assert_agree(cases, lambda case: chrf_plus_plus(*case),
                  lambda case: metric.sentence_score(*case).score / 100)
