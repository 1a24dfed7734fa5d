# problem: secret_lookup
# verdict: wrong_answer
# attack: tries to rewrite the supervisor's code on disk (/opt/judge/sandbox/inside/*.py), sitecustomize and the Python library, and to become root
# max-seconds: 10
import contextlib
import os
import sys


def lookup(key):
    wrote = []
    targets = ["/opt/judge/sandbox/inside/harness.py", "/opt/judge/sandbox/inside/protocol.py",
               "/opt/judge/sandbox/inside/learner.py", "/opt/judge/sandbox/inside/evil.py"]
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
