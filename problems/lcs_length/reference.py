"""Reference solution for lcs_length: the classic dynamic program, keeping two rows."""


def lcs_length(a: list[str], b: list[str]) -> int:
    if len(b) > len(a):
        a, b = b, a  # the row runs over the shorter list
    previous = [0] * (len(b) + 1)
    for x in a:
        current = [0]
        left = 0  # current[j], the best for a[:i+1] and b[:j]
        for j, y in enumerate(b):
            if x == y:
                left = previous[j] + 1
            elif previous[j + 1] > left:
                left = previous[j + 1]
            current.append(left)
        previous = current
    return previous[-1]
