# problem: secret_lookup
# verdict: runtime_error
# attack: tagged values outside the schema: an unknown tag, a huge int literal, an unhashable dict key and extra keys on a value
# max-seconds: 10
import os

CLAIMS = {
    "a": b'{"t": "bytes", "v": "zq-secret-101"}',
    "b": b'{"t": "int", "v": "' + b"9" * 100_000 + b'"}',
}


def lookup(key):
    value = CLAIMS.get(key, b'{"t": "dict", "v": [[{"t": "list", "v": []}, {"t": "none"}]], "extra": 1}')
    os.write(3, b'{"outcome": "returned", "value": ' + value + b', "args_after": [{"t": "str", "v": "'
             + key.encode() + b'"}], "kwargs_after": {}}')
    os._exit(0)
