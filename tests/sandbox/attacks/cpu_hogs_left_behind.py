# problem: secret_lookup
# verdict: wrong_answer
# under-runsc: memory_limit_exceeded | time_limit_exceeded
# attack: leaves 30 busy-looping children behind after every call, hoping to starve the following tests of CPU until they time out
# max-seconds: 10
import os


def lookup(key):
    for _ in range(30):
        try:
            if os.fork() == 0:
                os.setsid()
                while True:
                    pass
        except OSError:
            break
    return "wrong"
