# problem: secret_lookup
# verdict: runtime_error
# attack: frames its claims with a length line that lies: one larger than any claim may be, one with a letter in it, and one right frame followed by a second claim for the same call (sharing one process, a claim is framed; with a fresh process per test none of these is JSON)
# max-seconds: 10
import json
import os

CLAIM = json.dumps({"outcome": "returned", "value": {"t": "str", "v": "zq-secret-101"},
                    "args_after": [{"t": "str", "v": "a"}], "kwargs_after": {}}).encode()
RIGHT = str(len(CLAIM)).encode() + b"\n" + CLAIM
LIES = (b"99999999999\n" + CLAIM, b"1x\n" + CLAIM, RIGHT + RIGHT)
_CALLS = []


def lookup(key):
    _CALLS.append(1)
    os.write(3, LIES[(len(key) + len(_CALLS)) % len(LIES)])
    return "zq-secret-101"
