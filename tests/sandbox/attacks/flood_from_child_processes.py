# problem: secret_lookup
# verdict: output_limit_exceeded
# attack: forks children that flood the shared stdout pipe while the call itself waits for them
# max-seconds: 6
import os


def lookup(key):
    for _ in range(4):
        if os.fork() == 0:
            while True:
                os.write(1, b"c" * 4096)
    while True:
        os.wait()
