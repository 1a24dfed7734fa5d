# problem: secret_lookup
# verdict: runtime_error
# attack: NaN, Infinity and -Infinity literals in the claim JSON (which Python's json accepts by default)
# max-seconds: 10
import os


def lookup(key):
    os.write(3, b'{"outcome": "returned", "value": {"t": "str", "v": "zq-secret-101"}, '
                b'"args_after": [{"t": "str", "v": "a"}], "kwargs_after": {}, "x": [NaN, Infinity, -Infinity]}')
    os._exit(0)
