# problem: secret_lookup
# verdict: output_limit_exceeded
# attack: floods stderr, with os.write and through sys.stderr, which the container's own log must never receive
# max-seconds: 6
import os
import sys


def lookup(key):
    while True:
        os.write(2, b"E" * 65536)
        sys.stderr.write("e" * 65536)
