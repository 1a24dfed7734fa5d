# problem: bleu_1gram
# verdict: time_limit_exceeded
# attack: lowers its own RLIMIT_CPU to one second and restores SIGXCPU's default, to see that a self-inflicted SIGXCPU is still a time-out, never a crash
# max-seconds: 7
import resource
import signal


def bleu_1gram(reference, candidate):
    signal.signal(signal.SIGXCPU, signal.SIG_DFL)
    resource.setrlimit(resource.RLIMIT_CPU, (1, resource.getrlimit(resource.RLIMIT_CPU)[1]))
    while True:
        pass
