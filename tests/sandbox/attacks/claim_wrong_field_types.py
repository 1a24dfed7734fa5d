# problem: secret_lookup
# verdict: runtime_error
# attack: claims whose fields have the wrong JSON types: a numeric error type, a null message, a string and a boolean line, an int as an outcome
# max-seconds: 10
import os

CLAIMS = {
    "a": '{"outcome": "raised", "error": {"type": 5, "message": null, "line": "3"}}',
    "b": '{"outcome": "raised", "error": {"type": "E", "message": "m", "line": true}}',
}


def lookup(key):
    os.write(3, CLAIMS.get(key, '{"outcome": 1}').encode())
    os._exit(0)
