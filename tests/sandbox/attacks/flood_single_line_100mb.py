# problem: secret_lookup
# verdict: output_limit_exceeded
# attack: writes one 100 MB line with no newline at all, in 1 MB os.write calls
# max-seconds: 6
import os

CHUNK = b"x" * (1 << 20)


def lookup(key):
    for _ in range(100):
        view = memoryview(CHUNK)
        while view:
            view = view[os.write(1, view):]
    return "zq-secret-101"
