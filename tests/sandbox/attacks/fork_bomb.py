# problem: secret_lookup
# verdict: time_limit_exceeded
# under-runsc: memory_limit_exceeded | time_limit_exceeded
# attack: the classic fork bomb: every process forks forever, swallowing the errors at the pids limit
# max-seconds: 12
import contextlib
import os


def lookup(key):
    while True:
        with contextlib.suppress(OSError):
            os.fork()
