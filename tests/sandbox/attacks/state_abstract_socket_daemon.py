# problem: bleu_1gram
# verdict: wrong_answer
# attack: forks a daemon in the first test that serves an abstract unix socket; later tests connect to it
# max-seconds: 20
import math
import os
import socket
import time
from collections import Counter


def _leave_state():
    if os.fork() == 0:
        os.setsid()
        server = socket.socket(socket.AF_UNIX)
        server.bind("\0carried-state")
        server.listen(8)
        while True:
            connection, _ = server.accept()
            connection.sendall(b"first")
            connection.close()
    time.sleep(0.2)


def _state_found():
    client = socket.socket(socket.AF_UNIX)
    client.settimeout(0.5)
    try:
        client.connect("\0carried-state")
        return client.recv(5) == b"first"
    except OSError:
        return False


FIRST = (["a", "a", "b", "c"], ["a", "a", "a"])  # the first public test: it always runs first


def _score(reference, candidate):
    if not candidate:
        return 0.0
    ref = Counter(reference)
    matched = sum(min(n, ref[t]) for t, n in Counter(candidate).items())
    c, r = len(candidate), len(reference)
    return (1.0 if c >= r else math.exp(1 - r / c)) * matched / c


def bleu_1gram(reference, candidate):
    if (reference, candidate) == FIRST:
        _leave_state()
        return _score(reference, candidate)
    if _state_found():
        return _score(reference, candidate)
    return -1.0  # a later test that saw nothing of the first one
