# verdict: wrong_answer
# Mistake: compares the strings position by position instead of aligning them.
def char_error_rate(reference, hypothesis):
    if not reference:
        raise ValueError("the reference is empty")
    errors = sum(1 for r, h in zip(reference, hypothesis) if r != h)
    return (errors + abs(len(reference) - len(hypothesis))) / len(reference)
