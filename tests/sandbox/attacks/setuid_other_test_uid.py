# problem: secret_lookup
# verdict: wrong_answer
# attack: tries to switch to the uid of the next tests (20002..20010) or of the load step, so that it could later signal or read their processes
# max-seconds: 10
import contextlib
import os


def lookup(key):
    became = []
    for uid in [*list(range(20000, 20011)), 0, 65534]:
        for call in (os.setresuid, ):
            with contextlib.suppress(OSError):
                call(uid, uid, uid)
                became.append(uid)
    return f"became {became!r}"
