# problem: secret_lookup
# verdict: runtime_error
# attack: a 5 MB claim (over the 4 MiB claim cap) written straight to fd 3
# max-seconds: 10
import os


def lookup(key):
    body = b'{"outcome": "returned", "value": {"t": "str", "v": "' + b"z" * (5 * 1024 * 1024) + b'"}}'
    view = memoryview(body)
    while view:
        view = view[os.write(3, view):]
    os._exit(0)
