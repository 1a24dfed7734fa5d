# problem: secret_lookup
# verdict: output_limit_exceeded
# attack: floods stdout while the module loads, before any test runs
# max-seconds: 6
import sys

while True:
    sys.stdout.write("x" * 4096)


def lookup(key):
    return key
