# problem: secret_lookup
# verdict: wrong_answer
# attack: opens /proc/1/mem, /proc/1/maps and /proc/1/environ to read or overwrite the supervisor's memory, and reports what worked
# max-seconds: 10


def lookup(key):
    report = []
    for path, mode in (("/proc/1/mem", "r+b"), ("/proc/1/mem", "rb"), ("/proc/1/maps", "rb"),
                       ("/proc/1/environ", "rb"), ("/proc/1/stack", "rb"), ("/proc/1/syscall", "rb")):
        try:
            with open(path, mode) as handle:
                report.append(f"{path}:{len(handle.read(4096))}")
        except OSError as exc:
            report.append(f"{path}:{type(exc).__name__}")
    return " ".join(report)
