# problem: secret_lookup
# verdict: runtime_error
# attack: a claim just under 4 MiB of raw control bytes, which the supervisor's JSON record escapes six-fold (past the host's 16 MiB stream cap)
# max-seconds: 10
import os


def lookup(key):
    body = b"\x01" * (4 * 1024 * 1024 - 16)
    view = memoryview(body)
    while view:
        view = view[os.write(3, view):]
    os._exit(0)
