# problem: secret_lookup
# verdict: wrong_answer
# attack: a forged claim whose value is an "other" whose type name and repr hold NUL, lone surrogates and 100 KB of text (the type name reaches the category)
# max-seconds: 10
import json
import os


def _framed(claim):
    """As the claim pipe expects it: a process that serves every test (its tests come on fd 4)
    frames each claim with its byte count on a line."""
    try:
        os.fstat(4)
    except OSError:
        return claim
    return str(len(claim)).encode() + b"\n" + claim


def lookup(key):
    value = {"t": "other", "type": "T\x00\ud800" + "x" * 100_000, "repr": "\x00\udc80"}
    os.write(3, _framed(json.dumps({"outcome": "returned", "value": value,
                                    "args_after": [{"t": "str", "v": key}], "kwargs_after": {}}).encode()))
    os._exit(0)
