# verdict: wrong_answer
# Mistake: compares the words position by position instead of aligning the sequences.
def word_error_rate(reference, hypothesis):
    ref, hyp = reference.split(), hypothesis.split()
    if not ref:
        raise ValueError("the reference has no words")
    errors = sum(1 for r, h in zip(ref, hyp) if r != h) + abs(len(ref) - len(hyp))
    return errors / len(ref)
