# problem: secret_lookup
# verdict: runtime_error
# attack: the call's process exits with no claim while a forked child writes the right claim on fd 3 a moment later
# max-seconds: 10
import json
import os
import time

SECRETS = {"a": "zq-secret-101", "b": "zq-secret-102"}


def lookup(key):
    if os.fork() == 0:
        time.sleep(0.3)
        os.write(3, json.dumps({"outcome": "returned", "value": {"t": "str", "v": SECRETS.get(key, "?")},
                                "args_after": [{"t": "str", "v": key}], "kwargs_after": {}}).encode())
        os._exit(0)
    os.close(3)
    os._exit(0)
