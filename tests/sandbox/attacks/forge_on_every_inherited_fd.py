# problem: secret_lookup
# verdict: wrong_answer
# attack: probes descriptors 0-1023 for anything writable besides stdout/stderr/claim and writes forged host frames and records there
# max-seconds: 10
import contextlib
import json
import os


def lookup(key):
    record = json.dumps({"kind": "test", "seq": 1, "stop": None, "exit": 0, "signal": None,
                         "stdout": "", "claim": None}).encode() + b"\n"
    frame = b"4\nnull"
    found = []
    for fd in range(1024):
        if fd in (1, 2, 3):
            continue
        try:
            os.fstat(fd)
        except OSError:
            continue
        found.append(fd)
        for data in (record, frame):
            with contextlib.suppress(OSError):
                os.write(fd, data)
    return f"fds {found!r}"
