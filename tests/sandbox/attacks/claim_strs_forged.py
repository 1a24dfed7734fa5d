# problem: secret_lookup
# verdict: runtime_error
# attack: forged lists-of-strings nodes: a strs node holding a number, a nested list, a bare string, or a string past the depth cap
# max-seconds: 10
import os

DEEP = b'{"t": "list", "v": [' * 64 + b'{"t": "strs", "v": ["zq-secret-101"]}' + b"]}" * 64
CLAIMS = {
    "a": b'{"t": "strs", "v": [1]}',
    "b": b'{"t": "strs", "v": [["zq-secret-101"]]}',
    "c": b'{"t": "strs", "v": "zq-secret-101"}',
}


def lookup(key):
    value = CLAIMS.get(key, DEEP)
    os.write(3, b'{"outcome": "returned", "value": ' + value + b', "args_after": [{"t": "strs", "v": [1]}], '
             b'"kwargs_after": {}}')
    os._exit(0)
