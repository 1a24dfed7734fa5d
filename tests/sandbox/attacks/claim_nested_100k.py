# problem: secret_lookup
# verdict: runtime_error
# attack: a claim whose value nests 100,000 levels of JSON arrays and objects, to blow the host parser's recursion
# max-seconds: 10
import os


def lookup(key):
    depth = 100_000
    value = '{"t": "list", "v": [' * 10 + "[" * depth + "]" * depth + "]}" * 10
    claim = f'{{"outcome": "returned", "value": {value}, "args_after": [{{"t": "str", "v": "a"}}], "kwargs_after": {{}}}}'
    os.write(3, claim.encode())
    os._exit(0)
