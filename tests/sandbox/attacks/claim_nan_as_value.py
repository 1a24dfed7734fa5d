# problem: secret_lookup
# verdict: runtime_error
# attack: a NaN literal placed where the tagged value's text belongs, so that only a parser that accepts NaN would read it
# max-seconds: 10
import os


def lookup(key):
    os.write(3, b'{"outcome": "returned", "value": {"t": "float", "v": NaN}, '
                b'"args_after": [{"t": "str", "v": "a"}], "kwargs_after": {}}')
    os._exit(0)
