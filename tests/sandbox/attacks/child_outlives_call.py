# problem: bleu_1gram
# verdict: wrong_answer
# attack: forks a CPU-burning child that keeps the stdout and claim pipes open and outlives the call; the call itself returns a wrong value at once
# max-seconds: 12
import os


def bleu_1gram(reference, candidate):
    if os.fork() == 0:
        os.setsid()
        while True:
            pass
    return -1.0
