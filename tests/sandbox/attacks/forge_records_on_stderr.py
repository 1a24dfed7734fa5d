# problem: secret_lookup
# verdict: wrong_answer
# attack: writes supervisor-like records (and a half record with no newline) to stderr, hoping they reach the host's stream
# max-seconds: 10
import json
import sys


def lookup(key):
    for seq in range(6):
        claim = json.dumps({"outcome": "returned", "value": {"t": "str", "v": f"zq-secret-10{seq + 1}"},
                            "args_after": [{"t": "str", "v": key}], "kwargs_after": {}})
        record = {"kind": "test", "seq": seq, "stop": None, "exit": 0, "signal": None, "stdout": "",
                  "claim": claim}
        sys.stderr.write("\n" + json.dumps(record) + "\n")
    sys.stderr.write('{"kind": "test", "seq": 0, "stop": nu')
    sys.stderr.flush()
    return "wrong"
