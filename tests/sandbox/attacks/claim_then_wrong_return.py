# problem: secret_lookup
# verdict: runtime_error
# attack: writes a correct-looking claim on fd 3 itself and then lets the call return, so two claims share the pipe
# max-seconds: 10
import json
import os


def lookup(key):
    os.write(3, json.dumps({"outcome": "returned", "value": {"t": "str", "v": "zq-secret-101"},
                            "args_after": [{"t": "str", "v": key}], "kwargs_after": {}}).encode())
    return "zq-secret-101" if key == "a" else "?"
