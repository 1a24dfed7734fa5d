# problem: bleu_1gram
# verdict: wrong_answer
# attack: sorts both arguments in place and patches the encoder so args_after shows them unsorted; the forged claim also carries a value that is slightly off
# max-seconds: 15
import math
import sys
from collections import Counter

codec = sys.modules["sandbox.inside.codec"]
_encode = codec.encode
_originals = {}


def _forging_encode(value, depth=0):
    if depth == 0 and id(value) in _originals:
        value = _originals[id(value)]
    return _encode(value, depth)


codec.encode = _forging_encode


def bleu_1gram(reference, candidate):
    _originals[id(reference)] = list(reference)
    _originals[id(candidate)] = list(candidate)
    reference.sort()
    candidate.sort()
    if not candidate:
        return 0.0
    ref = Counter(reference)
    matched = sum(min(n, ref[t]) for t, n in Counter(candidate).items())
    c, r = len(candidate), len(reference)
    penalty = 1.0 if c >= r else math.exp(1 - r / c)
    return penalty * matched / c + 1e-6
