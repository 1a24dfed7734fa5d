# problem: bleu_1gram
# verdict: accepted
# attack: a right answer from every call, each of which leaves a sleeping child behind: the judge must end the children between tests (stopping and continuing the learner's process) and never leave that process stopped
# max-seconds: 20
import math
import os
import time
from collections import Counter


def _reap():
    """The children the judge killed after the last call, collected (else, as zombies, they
    would fill the container's process limit: this code's own doing)."""
    try:
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass
    except ChildProcessError:
        pass


def bleu_1gram(reference, candidate):
    _reap()
    if os.fork() == 0:
        time.sleep(100)
        os._exit(0)
    if not candidate:
        return 0.0
    ref = Counter(reference)
    matched = sum(min(n, ref[t]) for t, n in Counter(candidate).items())
    c, r = len(candidate), len(reference)
    return (1.0 if c >= r else math.exp(1 - r / c)) * matched / c
