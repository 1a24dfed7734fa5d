# verdict: wrong_answer
# Mistake: builds the table without the extra row and column of zeros, so cells in the first
# row and column do not carry an earlier match forward (a mismatch there resets them to 0).
# Kept to two rows, as fast as the reference, so that it fails by its answers alone: a full
# table made it slow enough on large inputs to run out of time on a busy machine.
def lcs_length(a, b):
    if not a or not b:
        return 0
    first = a[0]
    previous = [1 if y == first else 0 for y in b]
    for x in a[1:]:
        left = 1 if x == b[0] else 0
        current = [left]
        for j in range(1, len(b)):
            if x == b[j]:
                left = previous[j - 1] + 1
            elif previous[j] > left:
                left = previous[j]
            current.append(left)
        previous = current
    return previous[-1]
