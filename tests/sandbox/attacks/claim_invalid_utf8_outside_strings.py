# problem: secret_lookup
# verdict: runtime_error
# attack: invalid UTF-8 bytes and a BOM between the claim's JSON tokens
# max-seconds: 10
import os


def lookup(key):
    os.write(3, b'\xef\xbb\xbf{"outcome": \xff\xfe"returned", "value": {"t": "str", "v": "zq-secret-101"}, '
                b'"args_after": [{"t": "str", "v": "a"}], "kwargs_after": {}}\xc0\x80')
    os._exit(0)
