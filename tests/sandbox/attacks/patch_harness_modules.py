# problem: secret_lookup
# verdict: time_limit_exceeded
# attack: rewrites the supervisor and protocol modules it can reach through sys.modules (time limits, caps, the emit and claim functions), then spins
# max-seconds: 5
import json
import sys


def lookup(key):
    forged = json.dumps({"outcome": "returned", "value": {"t": "str", "v": "zq-secret-101"},
                         "args_after": [{"t": "str", "v": key}], "kwargs_after": {}})
    for name, module in list(sys.modules.items()):
        if name in ("__main__", "harness") or name.startswith("sandbox"):
            for attr in ("CLAIM_CAP", "LINE_CAP", "FRAME_CAP", "BASE_UID"):
                if hasattr(module, attr):
                    setattr(module, attr, 10**12)
            for attr in ("_supervise", "_finish", "_clear_uid", "_kill_uid", "_emit", "_claim"):
                if hasattr(module, attr):
                    setattr(module, attr, lambda *a, **k: forged)
    json.dumps = lambda *a, **k: forged
    while True:
        pass
