"""expected_calibration_error's reference against an independent numpy implementation (no
library ships ECE): np.digitize for the bins, np.bincount for the per-bin totals."""

from __future__ import annotations

import random

from tests.problems.test_against_libraries import CASES, SEED, _assert_agree, _reference, _require


def _forecasts(rng: random.Random) -> tuple[list[int], list[float], int]:
    bins = rng.choice((1, 2, 3, 5, 10, 15, 20, rng.randint(1, 60), 1000))
    n = rng.choice((1, 2, rng.randint(1, 30), rng.randint(10, 400)))
    bias = rng.choice((0.0, 0.15, -0.15))
    probabilities = [rng.choice((rng.randint(0, bins) / bins, 0.0, 1.0, round(rng.random(), 2), rng.random()))
                     for _ in range(n)]  # many exactly on a bin boundary
    outcomes = [int(rng.random() < p + bias) for p in probabilities]
    return outcomes, probabilities, bins


def _numpy_ece(np, outcomes: list[int], probabilities: list[float], bins: int) -> float:
    o = np.asarray(outcomes, dtype=float)
    p = np.asarray(probabilities, dtype=float)
    # The statement's index min(floor(p * B), B - 1): digitizing the product p * B against the
    # interior integer edges 1 .. B - 1 counts the edges at or below it, which is exactly that
    # (the product is the same IEEE multiplication in numpy and Python).
    index = np.digitize(p * bins, np.arange(1, bins))
    counts = np.bincount(index, minlength=bins)
    hits = np.bincount(index, weights=o, minlength=bins)
    confidence = np.bincount(index, weights=p, minlength=bins)
    used = counts > 0
    gaps = np.abs(hits[used] / counts[used] - confidence[used] / counts[used])
    return float(np.sum(counts[used] / len(p) * gaps))


def test_expected_calibration_error_matches_numpy() -> None:
    np = _require("numpy")
    ours = _reference("expected_calibration_error")
    rng = random.Random(SEED)
    cases = [_forecasts(rng) for _ in range(CASES)]
    _assert_agree(cases, lambda c: ours(*c), lambda c: _numpy_ece(np, *c))


def test_expected_calibration_error_pinned_where_edges_differ() -> None:
    np = _require("numpy")
    ours = _reference("expected_calibration_error")
    # The common alternative, digitizing p itself against np.linspace(0, 1, B + 1), has the edge
    # 7/10 at 0.7000000000000001 and so puts p = 0.7 in bin 6; the statement's rule (the float
    # product 0.7 * 10 = 7.0) puts it in bin 7, together with 0.75.
    assert int(np.digitize(0.7, np.linspace(0, 1, 11)[1:-1])) == 6
    assert min(int(0.7 * 10), 9) == 7
    assert ours([1, 0], [0.7, 0.75], 10) == abs(0.5 - (0.7 + 0.75) / 2)
