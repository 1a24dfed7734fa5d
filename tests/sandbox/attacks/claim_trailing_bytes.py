# problem: secret_lookup
# verdict: runtime_error
# attack: a valid claim followed by extra bytes (a second object and garbage)
# max-seconds: 10
import os


def lookup(key):
    os.write(3, b'{"outcome": "returned", "value": {"t": "str", "v": "zq-secret-101"}, '
                b'"args_after": [{"t": "str", "v": "a"}], "kwargs_after": {}}{"outcome": "memory"}\x00garbage')
    os._exit(0)
