# problem: bleu_1gram
# verdict: time_limit_exceeded
# attack: sends itself SIGSTOP (and SIGTSTP) so the process is frozen, neither running nor exited, hoping the supervisor waits forever
# max-seconds: 7
import os
import signal


def bleu_1gram(reference, candidate):
    os.kill(os.getpid(), signal.SIGTSTP)
    os.kill(os.getpid(), signal.SIGSTOP)
    return 1.0
