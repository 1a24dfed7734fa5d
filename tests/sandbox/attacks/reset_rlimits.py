# problem: bleu_1gram
# verdict: time_limit_exceeded
# attack: tries to lift RLIMIT_CPU, RLIMIT_AS and RLIMIT_NPROC, to renice itself to -20 and to reset its OOM score, then spins
# max-seconds: 7
import contextlib
import os
import resource


def bleu_1gram(reference, candidate):
    for limit in (resource.RLIMIT_CPU, resource.RLIMIT_AS, resource.RLIMIT_NPROC, resource.RLIMIT_NOFILE):
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(limit, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        with contextlib.suppress(ValueError, OSError):
            hard = resource.getrlimit(limit)[1]
            resource.setrlimit(limit, (hard, hard))
    with contextlib.suppress(OSError):
        os.nice(-20)
    with contextlib.suppress(OSError):
        os.setpriority(os.PRIO_PROCESS, 0, -20)
    with contextlib.suppress(OSError), open("/proc/self/oom_score_adj", "w") as handle:
        handle.write("-1000")
    while True:
        pass
