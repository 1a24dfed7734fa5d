"""Reference solution for brevity_penalty: BLEU's penalty for a candidate shorter than its reference."""

import math


def brevity_penalty(candidate_length: int, reference_length: int) -> float:
    if candidate_length == 0:
        return 0.0
    if candidate_length >= reference_length:
        return 1.0
    return math.exp(1 - reference_length / candidate_length)
