# problem: secret_lookup
# verdict: wrong_answer
# under-runsc: memory_limit_exceeded | time_limit_exceeded
# attack: leaves 30 children behind after every call that start busy-looping once the call has returned, hoping to starve the following tests of CPU until they time out
# max-seconds: 10
import os
import time


def lookup(key):
    for _ in range(30):
        try:
            if os.fork() == 0:
                os.setsid()
                time.sleep(0.05)  # spin only once the call is over: the next tests are the target
                while True:
                    pass
        except OSError:
            break
    return "wrong"
