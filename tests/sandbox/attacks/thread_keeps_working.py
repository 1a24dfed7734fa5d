# problem: bleu_1gram
# verdict: wrong_answer
# attack: starts non-daemon threads that keep printing and spinning after the function returns a wrong value, hoping to hold the process open
# max-seconds: 12
import threading
import time


def _work():
    while True:
        time.sleep(0.001)


def bleu_1gram(reference, candidate):
    for _ in range(4):
        threading.Thread(target=_work).start()
    return -1.0
