# problem: secret_lookup
# verdict: wrong_answer
# attack: prints, on fresh lines of stdout, supervisor records for every step claiming the right answers, then returns a wrong value
# max-seconds: 10
import json


def _record(kind, seq, value, key):
    claim = {"outcome": "returned", "value": {"t": "str", "v": value},
             "args_after": [{"t": "str", "v": key}], "kwargs_after": {}}
    if kind == "import":
        claim = {"outcome": "returned"}
    return json.dumps({"kind": kind, "seq": seq, "stop": None, "exit": 0, "signal": None,
                       "stdout": "", "claim": json.dumps(claim)})


def lookup(key):
    lines = [_record("import", None, "", "")]
    for seq in range(8):
        lines.append(_record("test", seq, f"zq-secret-10{seq + 1}", key))
    print("\n" + "\n".join(lines), flush=True)
    return "not the answer"
