def brevity_penalty(candidate_length: int, reference_length: int) -> float:
    """Return BLEU's brevity penalty for a candidate of `candidate_length` tokens.

    0.0 for an empty candidate (even if the reference is empty too), 1.0 when the candidate is
    at least as long as the reference, and exp(1 - reference_length / candidate_length)
    otherwise. Always return a float.
    """
    raise NotImplementedError
