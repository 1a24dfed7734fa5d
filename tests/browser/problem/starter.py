def unigram_precision(candidate, reference):
    """The share of candidate tokens found in the reference, counts clipped."""
    raise NotImplementedError
