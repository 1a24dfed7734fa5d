# problem: secret_lookup
# verdict: output_limit_exceeded
# attack: an endless os.write(1, ...) loop of record-shaped lines, bypassing Python's buffers
# max-seconds: 6
import os

LINE = b'{"kind": "test", "seq": 0, "stop": null, "exit": 0, "signal": null, "stdout": "", "claim": null}\n'


def lookup(key):
    while True:
        os.write(1, LINE * 100)
