# problem: secret_lookup
# verdict: runtime_error
# attack: a claim with a well-formed tagged value nested 5,000 levels deep, under the JSON recursion limit but over the codec's depth
# max-seconds: 10
import os


def lookup(key):
    depth = 5_000
    value = '{"t": "list", "v": [' * depth + '{"t": "str", "v": "zq-secret-101"}' + "]}" * depth
    os.write(3, (f'{{"outcome": "returned", "value": {value}, "args_after": [{{"t": "str", "v": "{key}"}}], '
                 '"kwargs_after": {}}').encode())
    os._exit(0)
