# problem: secret_lookup
# verdict: runtime_error
# attack: the right value with an invalid UTF-8 byte and an overlong NUL inside the string, hoping a lenient decoder drops them and the value matches
# max-seconds: 10
import os

SECRETS = {"a": b"zq-secret-101", "b": b"zq-secret-102"}


def lookup(key):
    value = SECRETS.get(key, b"?")
    os.write(3, b'{"outcome": "returned", "value": {"t": "str", "v": "' + value + b'\xff\xc0\x80"}, '
                b'"args_after": [{"t": "str", "v": "' + key.encode() + b'"}], "kwargs_after": {}}')
    os._exit(0)
