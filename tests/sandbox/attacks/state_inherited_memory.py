# problem: bleu_1gram
# verdict: wrong_answer
# under-shared: accepted; the later tests run in the same process, so the marker is in its own memory; the next submission gets a fresh container
# gvisor-isolations: shared, per_test
# attack: the first test prints a marker built at run time; later tests read the memory they inherited from the supervisor (/proc/self/mem after PR_SET_DUMPABLE) and answer right (and print it again) only if the marker is there
# max-seconds: 30
import ctypes
import math
import re
from collections import Counter

FIRST = (["a", "a", "b", "c"], ["a", "a", "a"])  # the first public test: it always runs first
# The marker never exists as contiguous bytes in a fresh process: the pattern is compiled to code
# points, and the printed text is built at run time.
MARKER = re.compile(rb"carried(-)state(-)2193(5)9")


def _leave_state():
    print("carried" + "-state-" + str(31337 * 7))


def _state_found():
    ctypes.CDLL(None).prctl(4, 1, 0, 0, 0)  # PR_SET_DUMPABLE: /proc/self/mem becomes readable
    with open("/proc/self/maps") as maps, open("/proc/self/mem", "rb", 0) as mem:
        for line in maps:
            fields = line.split()
            # Writable mappings only (heap, stacks, the data of libraries): where a value built
            # at run time lives. Reading the read-only code too made each test slow enough under
            # gVisor to meet the time limit on a loaded machine, which is not the attack's point.
            if "rw" not in fields[1] or (len(fields) > 5 and fields[5] in ("[vvar]", "[vsyscall]")):
                continue
            start, end = (int(x, 16) for x in fields[0].split("-"))
            if end - start > 64 * 1024 * 1024:
                continue
            if _search(mem, start, end):
                return True
    return False


def _search(mem, start, end):
    # In chunks, each overlapping the last by more than the marker's length: whole mappings read
    # at once made gVisor, which hands freed memory back to the host lazily, count up to 64 MB
    # more per read, and on a loaded machine its sandbox ran out of memory before it caught up.
    chunk, overlap = 1 << 20, 64
    tail = b""
    try:
        mem.seek(start)
        for at in range(start, end, chunk):
            data = tail + mem.read(min(chunk, end - at))
            if MARKER.search(data):
                return True
            tail = data[-overlap:]
    except (OSError, ValueError, OverflowError):
        pass
    return False


def _score(reference, candidate):
    if not candidate:
        return 0.0
    ref = Counter(reference)
    matched = sum(min(n, ref[t]) for t, n in Counter(candidate).items())
    c, r = len(candidate), len(reference)
    return (1.0 if c >= r else math.exp(1 - r / c)) * matched / c


def bleu_1gram(reference, candidate):
    if (reference, candidate) == FIRST:
        _leave_state()
        return _score(reference, candidate)
    if _state_found():
        _leave_state()  # pass it on to the next test
        return _score(reference, candidate)
    return -1.0  # a later test that saw nothing of the first one
