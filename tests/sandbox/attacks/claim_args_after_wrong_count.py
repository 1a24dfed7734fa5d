# problem: bleu_1gram
# verdict: runtime_error
# attack: forges a claim whose args_after lists one argument instead of two and whose kwargs_after names an argument that was never passed
# max-seconds: 15
import json
import math
import os
from collections import Counter


def bleu_1gram(reference, candidate):
    if not candidate:
        score = 0.0
    else:
        ref = Counter(reference)
        matched = sum(min(n, ref[t]) for t, n in Counter(candidate).items())
        c, r = len(candidate), len(reference)
        score = (1.0 if c >= r else math.exp(1 - r / c)) * matched / c
    candidate.append("extra")
    os.write(3, json.dumps({
        "outcome": "returned", "value": {"t": "float", "v": repr(score)},
        "args_after": [{"t": "list", "v": [{"t": "str", "v": t} for t in reference]}],
        "kwargs_after": {"candidate": {"t": "list", "v": []}}}).encode())
    os._exit(0)
