# problem: secret_lookup
# verdict: runtime_error
# attack: duplicated keys, so that a last-key-wins parser would read a different value or outcome than a first-key-wins one
# max-seconds: 10
import os


def lookup(key):
    os.write(3, b'{"outcome": "raised", "outcome": "returned", "value": {"t": "str", "v": "x"}, '
                b'"value": {"t": "str", "v": "zq-secret-101"}, "args_after": [{"t": "str", "v": "a"}], '
                b'"kwargs_after": {}}')
    os._exit(0)
