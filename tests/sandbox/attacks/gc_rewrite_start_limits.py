# problem: secret_lookup
# verdict: time_limit_exceeded
# attack: finds the supervisor's Start and Child objects through gc in its inherited memory, raises time_limit and the caps, then sleeps past the limit
# max-seconds: 5
import contextlib
import gc
import time


def lookup(key):
    for obj in gc.get_objects():
        kind = type(obj).__name__
        if kind in ("Start", "Child", "Limits"):
            for name in ("time_limit", "lifetime", "stdout_cap", "memory_bytes", "time_per_test"):
                with contextlib.suppress(AttributeError, TypeError):
                    object.__setattr__(obj, name, 10**9)
    time.sleep(30)
    return "zq-secret-101"
