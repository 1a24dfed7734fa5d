# problem: secret_lookup
# verdict: time_limit_exceeded
# attack: writes a correct claim on fd 3 at once and then spins forever, hoping the claim ends the call before the clock does
# max-seconds: 5
import json
import os


def lookup(key):
    os.write(3, json.dumps({"outcome": "returned", "value": {"t": "str", "v": "zq-secret-101"},
                            "args_after": [{"t": "str", "v": key}], "kwargs_after": {}}).encode())
    os.close(3)
    while True:
        pass
