# verdict: wrong_answer
# Mistake: matches greedily: each token of a takes the next equal token of b, which can use up
# b too early.
def lcs_length(a, b):
    count = 0
    position = 0
    for x in a:
        for j in range(position, len(b)):
            if b[j] == x:
                count += 1
                position = j + 1
                break
    return count
