# problem: secret_lookup
# verdict: runtime_error
# attack: claims a dict of 60,000 int keys that all share one hash (multiples of 2**61 - 1), so that building it on the host costs time quadratic in its size (about 18 s for this 4 MB claim)
# max-seconds: 10
import json
import os


def lookup(key):
    modulus = (1 << 61) - 1
    pairs = ",".join('[{"t": "int", "v": "%d"}, {"t": "none"}]' % (k * modulus) for k in range(1, 60_001))
    claim = ('{"outcome": "returned", "value": {"t": "dict", "v": [%s]}, "args_after": [%s], '
             '"kwargs_after": {}}' % (pairs, json.dumps({"t": "str", "v": key})))
    os.write(3, claim.encode())
    os._exit(0)
