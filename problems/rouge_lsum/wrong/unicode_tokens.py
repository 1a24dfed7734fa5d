# verdict: wrong_answer
# Mistake: tokenizes as the rouge_l_f1 exercise does (runs of Unicode letters and numbers),
# not with rouge_score's ASCII-only tokenizer.

import re
from collections import Counter

_TOKEN = re.compile(r"[^\W_]+")


def _tokens(text: str) -> list[str]:
    """Lowercase, then keep maximal runs of the ASCII characters a-z and 0-9."""
    return _TOKEN.findall(text.lower())


def _sentences(text: str) -> list[list[str]]:
    """Split on "\\n", drop empty lines, tokenize each (a line may have no tokens)."""
    return [_tokens(line) for line in text.split("\n") if line]


def _lcs_positions(ref: list[str], cand: list[str]) -> list[int]:
    """Positions in ref of one longest common subsequence, traced back as rouge_score does."""
    table = [[0] * (len(cand) + 1) for _ in range(len(ref) + 1)]
    for i in range(1, len(ref) + 1):
        for j in range(1, len(cand) + 1):
            if ref[i - 1] == cand[j - 1]:
                table[i][j] = table[i - 1][j - 1] + 1
            else:
                table[i][j] = max(table[i - 1][j], table[i][j - 1])
    positions = []
    i, j = len(ref), len(cand)
    while i > 0 and j > 0:
        if ref[i - 1] == cand[j - 1]:
            positions.append(i - 1)
            i -= 1
            j -= 1
        elif table[i][j - 1] > table[i - 1][j]:
            j -= 1  # strictly better without the candidate token
        else:
            i -= 1  # otherwise (ties too) drop the reference token
    return positions


def rouge_lsum(reference: str, candidate: str) -> float:
    ref_sentences = _sentences(reference)
    cand_sentences = _sentences(candidate)
    ref_total = sum(len(sentence) for sentence in ref_sentences)
    cand_total = sum(len(sentence) for sentence in cand_sentences)
    if ref_total == 0 or cand_total == 0:
        return 0.0

    # Tokens of the union LCS of every reference sentence against all candidate sentences.
    union_counts: Counter = Counter()
    for ref in ref_sentences:
        union: set[int] = set()
        for cand in cand_sentences:
            union.update(_lcs_positions(ref, cand))
        union_counts.update(ref[i] for i in union)

    # A token is credited at most as often as it occurs in the candidate summary.
    cand_counts = Counter(token for sentence in cand_sentences for token in sentence)
    hits = sum(min(count, cand_counts[token]) for token, count in union_counts.items())
    if hits == 0:
        return 0.0
    precision = hits / cand_total
    recall = hits / ref_total
    return 2 * precision * recall / (precision + recall)
