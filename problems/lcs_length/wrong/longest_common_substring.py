# verdict: wrong_answer
# Mistake: computes the longest common contiguous run (substring): it resets to 0 on a
# mismatch instead of carrying the best value so far.
def lcs_length(a, b):
    best = 0
    previous = [0] * (len(b) + 1)
    for x in a:
        current = [0] * (len(b) + 1)
        for j, y in enumerate(b, 1):
            if x == y:
                current[j] = previous[j - 1] + 1
                best = max(best, current[j])
        previous = current
    return best
