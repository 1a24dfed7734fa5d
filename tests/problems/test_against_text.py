"""References of the speech and summary problems against jiwer (WER, CER) and rouge-score
(ROUGE-N), on generated inputs, as tests/problems/test_against_libraries.py does for the others."""

from __future__ import annotations

import random

from tests.problems.test_against_libraries import (
    ATOMS,
    CASES,
    SEED,
    UNICODE,
    StatementTokenizer,
    _assert_agree,
    _reference,
    _require,
    _text,
    _token_pair,
)
from tests.problems.test_against_libraries import WORDS as LIBRARY_WORDS

WORDS = ("the", "The", "cat", "sat", "on", "mat", "mat.", "a", "dog", "caf\u00e9", "cafe\u0301", "42", "don't")


def _transcripts(rng: random.Random) -> tuple[str, str]:
    reference = [rng.choice(WORDS) for _ in range(rng.randint(1, 25))]
    if rng.random() < 0.7:  # a noisy copy: what a recognizer produces
        hypothesis = list(reference)
        for _ in range(rng.randint(0, 6)):
            at = rng.randint(0, len(hypothesis))
            kind = rng.randrange(3)
            if kind == 0 and at < len(hypothesis):
                hypothesis[at] = rng.choice(WORDS)
            elif kind == 1 and at < len(hypothesis):
                del hypothesis[at]
            else:
                hypothesis.insert(at, rng.choice(WORDS))
    else:
        hypothesis = [rng.choice(WORDS) for _ in range(rng.randint(0, 25))]
    gap = rng.choice((" ", "  ", "\t", " \n "))
    return gap.join(reference), " ".join(hypothesis)


def _spaced(text: str) -> str:
    return " ".join(text.split())


def test_word_error_rate_agrees_with_jiwer() -> None:
    jiwer = _require("jiwer")
    ours = _reference("word_error_rate")
    # jiwer splits on single spaces only: it is given the words of str.split() (the statement's
    # rule) joined by one space, and nothing else of its transform (no case or punctuation change).
    words = jiwer.Compose([jiwer.ReduceToListOfListOfWords()])
    rng = random.Random(SEED)
    generated = [_transcripts(rng) for _ in range(CASES + CASES // 2)]
    cases = [case for case in generated if case[1].split()][:CASES]
    empty = [case for case in generated if not case[1].split()]
    assert len(cases) == CASES and empty, "the generator must make both kinds"
    _assert_agree(cases, lambda c: ours(*c),
                  lambda c: jiwer.wer(_spaced(c[0]), _spaced(c[1]), reference_transform=words,
                                    hypothesis_transform=words))
    # jiwer refuses an empty hypothesis; the statement's rule is that every word is deleted: 1.0.
    assert all(ours(reference, hypothesis) == 1.0 for reference, hypothesis in empty)


def test_char_error_rate_agrees_with_jiwer() -> None:
    jiwer = _require("jiwer")
    ours = _reference("char_error_rate")
    # Code points as they are: jiwer's character transform alone (no stripping, no normalizing).
    chars = jiwer.Compose([jiwer.ReduceToListOfListOfChars()])
    rng = random.Random(SEED + 1)
    cases = [case for case in (_transcripts(rng) for _ in range(CASES * 2)) if case[1]][:CASES]
    assert len(cases) == CASES
    _assert_agree(cases, lambda c: ours(*c),
                  lambda c: jiwer.cer(c[0], c[1], reference_transform=chars, hypothesis_transform=chars))


def test_rouge_n_matches_rouge_score() -> None:
    rouge_scorer = _require("rouge_score.rouge_scorer")
    rouge_n = _reference("rouge_n")
    scorers = {n: rouge_scorer.RougeScorer([f"rouge{n}"], tokenizer=StatementTokenizer()) for n in (1, 2, 3, 4)}

    def make(rng: random.Random) -> tuple[str, str, int]:
        output, expected = _token_pair(rng, rng.choice((LIBRARY_WORDS, ATOMS, UNICODE)))
        return _text(rng, output), _text(rng, expected), rng.choice((1, 1, 2, 2, 3, 4))

    rng = random.Random(SEED + 2)
    cases = [make(rng) for _ in range(CASES)]
    _assert_agree(cases, lambda c: rouge_n(*c),
                  lambda c: scorers[c[2]].score(c[1], c[0])[f"rouge{c[2]}"].fmeasure)
