# problem: secret_lookup
# verdict: wrong_answer
# attack: fills /tmp to the last block (1 MB files up to the file-size limit) and then with empty files towards the inode limit, and returns a wrong value; later tests must find /tmp empty again
# max-seconds: 10
import contextlib
import os
import time


def lookup(key):
    before = os.listdir("/tmp")
    written = 0
    with contextlib.suppress(OSError):
        for i in range(32):
            with open(f"/tmp/big{i}", "wb") as handle:
                handle.write(b"\xff" * (1 << 20))
                written += 1 << 20
    created = 0
    # Well inside the 1 s limit, which also covers writing 16 MB before and wiping every file
    # after (the test's own clearing), even under gVisor on a slow machine.
    deadline = time.monotonic() + 0.2
    with contextlib.suppress(OSError):
        while created < 5000 and time.monotonic() < deadline:
            open(f"/tmp/e{created}", "w").close()
            created += 1
    return f"found {len(before)} entries, wrote {written} bytes and {created} files"
