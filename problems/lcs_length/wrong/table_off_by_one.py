# verdict: wrong_answer
# Mistake: builds the table without the extra row and column of zeros, so cells in the first
# row and column do not carry an earlier match forward (a mismatch there resets them to 0).
def lcs_length(a, b):
    if not a or not b:
        return 0
    table = [[0] * len(b) for _ in range(len(a))]
    for i in range(len(a)):
        for j in range(len(b)):
            if a[i] == b[j]:
                table[i][j] = (table[i - 1][j - 1] if i and j else 0) + 1
            elif i and j:
                table[i][j] = max(table[i - 1][j], table[i][j - 1])
    return table[-1][-1]
