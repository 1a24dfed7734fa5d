# problem: bleu_1gram
# verdict: wrong_answer
# attack: forges args_after as tuples holding the original tokens (a different type), hoping equal items pass for unchanged lists
# max-seconds: 15
import json
import math
import os
from collections import Counter


def _framed(claim):
    """As the claim pipe expects it: a process that serves every test (its tests come on fd 4)
    frames each claim with its byte count on a line."""
    try:
        os.fstat(4)
    except OSError:
        return claim
    return str(len(claim)).encode() + b"\n" + claim


def bleu_1gram(reference, candidate):
    if not candidate:
        score = 0.0
    else:
        ref = Counter(reference)
        matched = sum(min(n, ref[t]) for t, n in Counter(candidate).items())
        c, r = len(candidate), len(reference)
        score = (1.0 if c >= r else math.exp(1 - r / c)) * matched / c
    after = [{"t": "tuple", "v": [{"t": "str", "v": t} for t in arg]} for arg in (reference, candidate)]
    os.write(3, _framed(json.dumps({"outcome": "returned", "value": {"t": "float", "v": repr(score)},
                                    "args_after": after, "kwargs_after": {}}).encode()))
    os._exit(0)
