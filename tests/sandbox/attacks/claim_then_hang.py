# problem: secret_lookup
# verdict: time_limit_exceeded
# attack: writes a correct claim on fd 3 at once and then spins forever, hoping the claim ends the call before the clock does (a shared process's claim does end its call: the spin then times the next test out)
# max-seconds: 5
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
    os.write(3, _framed(json.dumps({"outcome": "returned", "value": {"t": "str", "v": "zq-secret-101"},
                                    "args_after": [{"t": "str", "v": key}], "kwargs_after": {}}).encode()))
    os.close(3)
    while True:
        pass
