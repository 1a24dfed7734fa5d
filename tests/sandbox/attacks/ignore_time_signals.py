# problem: bleu_1gram
# verdict: time_limit_exceeded
# attack: ignores SIGALRM, SIGXCPU, SIGTERM, SIGINT, SIGHUP, SIGVTALRM and SIGPROF, blocks the rest it can, and spins
# max-seconds: 7
import signal


def bleu_1gram(reference, candidate):
    for sig in (signal.SIGALRM, signal.SIGXCPU, signal.SIGTERM, signal.SIGINT, signal.SIGHUP,
                signal.SIGVTALRM, signal.SIGPROF, signal.SIGUSR1, signal.SIGUSR2):
        signal.signal(sig, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_BLOCK, set(signal.Signals) - {signal.SIGKILL, signal.SIGSTOP})
    while True:
        pass
