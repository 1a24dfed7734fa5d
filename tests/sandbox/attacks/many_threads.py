# problem: bleu_1gram
# verdict: wrong_answer
# attack: starts sleeping threads until the pids limit refuses more, then returns a wrong value; later tests must be able to start threads again
# max-seconds: 20
import threading
import time


def bleu_1gram(reference, candidate):
    started = 0
    try:
        for _ in range(10_000):
            threading.Thread(target=time.sleep, args=(3600,), daemon=True).start()
            started += 1
    except RuntimeError:
        pass
    return float(-started)
