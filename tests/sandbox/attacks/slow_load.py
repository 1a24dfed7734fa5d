# problem: bleu_1gram
# verdict: time_limit_exceeded
# attack: module-level code that never finishes loading, with every catchable signal ignored
# max-seconds: 12
import signal

for _sig in (signal.SIGALRM, signal.SIGTERM, signal.SIGXCPU, signal.SIGINT):
    signal.signal(_sig, signal.SIG_IGN)
while True:
    pass


def bleu_1gram(reference, candidate):
    return 0.0
