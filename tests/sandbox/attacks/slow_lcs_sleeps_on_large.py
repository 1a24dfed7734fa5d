# problem: lcs_length
# verdict: time_limit_exceeded
# attack: a correct dynamic program that sleeps for an hour once an input has 100 tokens or more (every large test would take the full wall clock)
# max-seconds: 12
import time


def lcs_length(a, b):
    if max(len(a), len(b)) >= 100:
        time.sleep(3600)
    previous = [0] * (len(b) + 1)
    for x in a:
        current = [0]
        for j, y in enumerate(b):
            current.append(previous[j] + 1 if x == y else max(previous[j + 1], current[j]))
        previous = current
    return previous[-1]
