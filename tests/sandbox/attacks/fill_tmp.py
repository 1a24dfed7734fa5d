# problem: secret_lookup
# verdict: wrong_answer
# attack: fills /tmp to the last block (1 MB files up to the file-size limit) and then with 2,000 empty files (half the inode limit), and returns a wrong value; later tests must find /tmp empty again
# max-seconds: 10
# serial: its verdict races secret_lookup's 1 s per test (the writes must end first): on a machine loaded by tests beside it, the time limit won
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
    # 2,000, not the 4,096 the inode limit allows: the wiping of every file after the call is the
    # test's own time, and on a slow machine it alone takes about 0.8 s for 4,000.
    deadline = time.monotonic() + 0.3
    with contextlib.suppress(OSError):
        while created < 2000 and time.monotonic() < deadline:
            open(f"/tmp/e{created}", "w").close()
            created += 1
    return f"found {len(before)} entries, wrote {written} bytes and {created} files"
