# problem: bleu_1gram
# verdict: time_limit_exceeded
# attack: sleeps far longer than the per-test limit, using no CPU so that CPU-time limits never fire
# max-seconds: 7
import time


def bleu_1gram(reference, candidate):
    time.sleep(3600)
    return 0.0
