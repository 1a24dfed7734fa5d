"""Submissions that look alike: winnowing (Schleimer, Wilkerson and Aiken, 2003) over Python tokens.

Source text is tokenized with the standard ``tokenize`` module (never compiled or run: this is
learner code), and every identifier, string and number is replaced by one placeholder each, so
renaming variables or changing constants leaves the token stream as it was; keywords and
operators stay, since they carry the algorithm. Comments and layout are dropped. Every k tokens in
a row (a k-gram) are hashed, and in each window of w consecutive hashes the minimum is kept: the
fingerprints. Any shared run of at least w + k - 1 tokens is then sure to share a fingerprint.

Two codes' similarity is the share of fingerprints they have in common, over the smaller set
(so a short solution copied inside a longer one still scores high). Fingerprints of the code
every learner starts from (the problem's starter) may be left out, so the signature alone never
makes two submissions alike.
"""

from __future__ import annotations

import hashlib
import io
import keyword
import tokenize
from dataclasses import dataclass

K = 8  # tokens per k-gram: shorter ones match by chance between unrelated solutions
WINDOW = 4  # hashes per winnowing window

_SKIPPED = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
            tokenize.ENCODING, tokenize.ENDMARKER}
# f-strings are split into several tokens from Python 3.12 on: their start stands for the string.
_FSTRING_START = getattr(tokenize, "FSTRING_START", None)
_FSTRING_PARTS = {getattr(tokenize, n) for n in ("FSTRING_MIDDLE", "FSTRING_END") if hasattr(tokenize, n)}


@dataclass(frozen=True)
class Token:
    text: str  # normalized
    first_line: int
    last_line: int


@dataclass(frozen=True)
class Fingerprint:
    hash: int
    first_line: int  # the lines its k-gram spans, 1-based
    last_line: int


@dataclass(frozen=True)
class Match:
    """Lines of a (from, to), inclusive, that match lines of b."""

    a_lines: tuple[int, int]
    b_lines: tuple[int, int]


@dataclass(frozen=True)
class Comparison:
    similarity: float  # 0..1: shared fingerprints over the smaller set
    matches: tuple[Match, ...]


def _normal(kind: int, text: str) -> str | None:
    if kind in _SKIPPED or kind in _FSTRING_PARTS:
        return None
    if kind == tokenize.NAME:
        return text if keyword.iskeyword(text) or keyword.issoftkeyword(text) else "V"
    if kind == tokenize.STRING or kind == _FSTRING_START:
        return "S"
    if kind == tokenize.NUMBER:
        return "N"
    return text


def tokens(code: str) -> list[Token]:
    """The normalized tokens of code. Code that stops tokenizing (a syntax error, an unclosed
    bracket) keeps the tokens read up to there: a broken submission still has a shape."""
    found: list[Token] = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(code).readline):
            text = _normal(token.type, token.string)
            if text is not None and text.strip():
                found.append(Token(text, token.start[0], token.end[0]))
    except (tokenize.TokenError, SyntaxError):  # IndentationError is a SyntaxError
        pass
    return found


def _hash(texts: list[str]) -> int:
    digest = hashlib.blake2b("\x1f".join(texts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def fingerprints(code: str, k: int = K, window: int = WINDOW) -> list[Fingerprint]:
    """The winnowed fingerprints of code, in order. Code shorter than k tokens is one k-gram,
    and fewer k-grams than a window make one window, so tiny code has a fingerprint or two."""
    if k < 1 or window < 1:
        raise ValueError("k and window must be at least 1")
    found = tokens(code)
    if not found:
        return []
    size = min(k, len(found))
    grams = [Fingerprint(_hash([t.text for t in found[i:i + size]]), found[i].first_line,
                         found[i + size - 1].last_line)
             for i in range(len(found) - size + 1)]
    width = min(window, len(grams))
    chosen: list[Fingerprint] = []
    last = -1
    for start in range(len(grams) - width + 1):
        # The rightmost minimum of the window: when the window slides, a minimum that is still
        # inside it stays the choice, so runs of equal hashes are not all recorded.
        position = min(range(start, start + width), key=lambda i: (grams[i].hash, -i))
        if position != last:
            chosen.append(grams[position])
            last = position
    return chosen


def _merge(pairs: list[Match]) -> tuple[Match, ...]:
    """Overlapping or touching matches, in a's order, joined when b's ranges touch as well."""
    merged: list[Match] = []
    for pair in sorted(pairs, key=lambda m: (m.a_lines, m.b_lines)):
        if merged:
            prev = merged[-1]
            a_touch = pair.a_lines[0] <= prev.a_lines[1] + 1
            b_touch = pair.b_lines[0] <= prev.b_lines[1] + 1 and pair.b_lines[1] >= prev.b_lines[0] - 1
            if a_touch and b_touch:
                merged[-1] = Match((prev.a_lines[0], max(prev.a_lines[1], pair.a_lines[1])),
                                   (min(prev.b_lines[0], pair.b_lines[0]),
                                    max(prev.b_lines[1], pair.b_lines[1])))
                continue
        merged.append(pair)
    return tuple(merged)


def compare(a: list[Fingerprint], b: list[Fingerprint], ignore: frozenset[int] = frozenset()) -> Comparison:
    """How alike two fingerprinted codes are, and which of their lines match. Hashes in
    ``ignore`` (the starter code's) count for neither side."""
    a_hashes = {f.hash for f in a} - ignore
    b_hashes = {f.hash for f in b} - ignore
    if not a_hashes or not b_hashes:
        return Comparison(0.0, ())
    shared = a_hashes & b_hashes
    similarity = len(shared) / min(len(a_hashes), len(b_hashes))
    first_in_b: dict[int, Fingerprint] = {}
    for fingerprint in b:
        first_in_b.setdefault(fingerprint.hash, fingerprint)
    pairs = [Match((f.first_line, f.last_line),
                   (first_in_b[f.hash].first_line, first_in_b[f.hash].last_line))
             for f in a if f.hash in shared]
    return Comparison(similarity, _merge(pairs))


def compare_code(a: str, b: str, base: str = "") -> Comparison:
    """``compare`` on two sources, leaving out what they share with ``base``."""
    ignore = frozenset(f.hash for f in fingerprints(base)) if base else frozenset()
    return compare(fingerprints(a), fingerprints(b), ignore)
