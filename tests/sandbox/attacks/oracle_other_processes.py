# problem: secret_lookup
# verdict: wrong_answer
# attack: reads /proc of every other process (cmdline, environ, fd links and their pipes, io, mem) and the supervisor's pipes, looking for hidden keys
# max-seconds: 10
import os
import re

PATTERN = re.compile(b"(?:hidden" + b"-key-[a-z]|zq-secret-2[0-9]+)")


def lookup(key):
    hits = set()
    seen = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        for part in ("cmdline", "environ", "io", "stat", "status", "mem", "maps", "wchan"):
            try:
                with open(f"/proc/{pid}/{part}", "rb") as handle:
                    hits.update(PATTERN.findall(handle.read(1_000_000)))
                seen.append(part)
            except OSError:
                pass
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            fds = []
        for fd in fds:
            try:
                with open(f"/proc/{pid}/fd/{fd}", "rb", 0) as handle:
                    os.set_blocking(handle.fileno(), False)
                    hits.update(PATTERN.findall(handle.read(65536) or b""))
            except OSError:
                pass
    found = sorted(h.decode() for h in hits)
    print("proc hits:", found)
    return ",".join(found) or "nothing"
