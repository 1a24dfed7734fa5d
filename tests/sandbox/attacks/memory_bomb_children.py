# problem: secret_lookup
# verdict: memory_limit_exceeded
# attack: touches memory in several forked children at once, so that the container's cgroup (not one process's RLIMIT_AS) runs out; the call waits for them and then itself grows without bound
# max-seconds: 10
# serial: its verdict races secret_lookup's 1 s per test (the cgroup's memory must run out first): on a machine loaded by tests beside it, the time limit won
import os


def lookup(key):
    for _ in range(3):
        if os.fork() == 0:
            try:
                block = bytearray(80 * 1024 * 1024)
                for i in range(0, len(block), 4096):
                    block[i] = 1
            finally:
                os._exit(0)
    for _ in range(3):
        try:
            os.wait()
        except ChildProcessError:
            break
    blocks = []
    while True:
        blocks.append(bytearray(1 << 20))
