# problem: secret_lookup
# verdict: wrong_answer
# attack: os.write of raw record bytes with CR/LF and NUL framing straight to fd 1 and fd 2, bypassing Python's buffering
# max-seconds: 10
import json
import os


def lookup(key):
    claim = json.dumps({"outcome": "returned", "value": {"t": "str", "v": "zq-secret-101"},
                        "args_after": [{"t": "str", "v": key}], "kwargs_after": {}})
    record = json.dumps({"kind": "test", "seq": 0, "stop": None, "exit": 0, "signal": None,
                         "stdout": "", "claim": claim}).encode()
    for fd in (1, 2):
        os.write(fd, b"\r\n\x00" + record + b"\n" + record + b"\r\n")
    return "zq-secret-000"
