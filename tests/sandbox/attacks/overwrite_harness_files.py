# problem: secret_lookup
# verdict: wrong_answer
# attack: tries to rewrite the supervisor's code on disk (/opt/judge/sandbox/*.py), sitecustomize and the Python library, and to become root
# max-seconds: 10
import contextlib
import os
import sys


def lookup(key):
    wrote = []
    targets = ["/opt/judge/sandbox/harness.py", "/opt/judge/sandbox/protocol.py",
               "/opt/judge/sandbox/learner.py", "/opt/judge/sandbox/evil.py"]
    targets += [os.path.join(p, "sitecustomize.py") for p in sys.path if p]
    for path in targets:
        try:
            with open(path, "a") as handle:
                handle.write("\nimport os; os._exit(0)\n")
            wrote.append(path)
        except OSError:
            pass
    for become in (os.setuid, os.seteuid, os.setgid):
        with contextlib.suppress(OSError):
            become(0)
            wrote.append("root")
    return "wrote:" + ",".join(wrote)
