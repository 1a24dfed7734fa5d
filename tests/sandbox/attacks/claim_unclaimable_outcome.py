# problem: secret_lookup
# verdict: runtime_error
# attack: claims outcomes only the host may decide (not_run, timeout, crashed, passed) on fd 3 and exits cleanly
# max-seconds: 10
import os


def lookup(key):
    outcome = {"a": "not_run", "b": "passed"}.get(key, "timeout")
    os.write(3, (f'{{"outcome": "{outcome}"}}').encode())
    os._exit(0)
