# problem: secret_lookup
# verdict: runtime_error
# attack: module-level code writes a claim on fd 3 while the module loads, so the load step carries two claims
# max-seconds: 10
import os

os.write(3, b'{"outcome": "returned"}')

SECRETS = {"a": "zq-secret-101", "b": "zq-secret-102"}


def lookup(key):
    return SECRETS.get(key, "?")
