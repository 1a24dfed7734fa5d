# problem: bleu_1gram
# verdict: time_limit_exceeded
# attack: monkeypatches time.monotonic, time.time, time.perf_counter, select.select and os.waitpid in its process to freeze every clock it can see, then spins
# max-seconds: 7
import os
import select
import time


def bleu_1gram(reference, candidate):
    for name in ("monotonic", "time", "perf_counter", "process_time", "monotonic_ns", "time_ns",
                 "perf_counter_ns"):
        setattr(time, name, lambda: 0)
    select.select = lambda *a, **k: ([], [], [])
    os.waitpid = lambda *a, **k: (0, 0)
    while True:
        pass
