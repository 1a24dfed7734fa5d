# problem: secret_lookup
# verdict: runtime_error
# attack: a forged raised-claim whose exception type and message carry NUL and lone surrogates, and a line number of 10**30
# max-seconds: 10
import json
import os


def lookup(key):
    error = {"type": "Err\x00\udc80", "message": "\x00\ud800" * 300, "line": 10**30}
    os.write(3, json.dumps({"outcome": "raised", "error": error}).encode())
    os._exit(0)
