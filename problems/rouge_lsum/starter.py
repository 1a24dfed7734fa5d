def rouge_lsum(reference: str, candidate: str) -> float:
    """Return the summary-level ROUGE-L F1 (ROUGE-Lsum) of `candidate` against `reference`.

    Split each text into sentences on "\\n" (empty lines dropped) and tokenize each sentence:
    lowercase, then keep the maximal runs of ASCII letters a-z and digits 0-9. For every
    reference sentence, take the union of the reference positions of one LCS with each
    candidate sentence (traced back from the end as the statement says), count the union's
    tokens, credit each token type at most as often as it occurs in the whole candidate, and
    return the F1 of precision = hits / candidate tokens and recall = hits / reference tokens.
    Either side without tokens scores 0.0.
    """
    raise NotImplementedError
