# problem: bleu_1gram
# verdict: wrong_answer
# attack: opens descriptors (files, pipes, sockets, eventfds) until EMFILE, then returns a wrong value
# max-seconds: 20
import contextlib
import os
import socket


def bleu_1gram(reference, candidate):
    held = []
    with contextlib.suppress(OSError):
        while True:
            held.append(os.open("/dev/null", os.O_RDONLY))
            held.extend(os.pipe())
            held.append(socket.socket())
            held.append(os.eventfd(0))
    return float(-len(held))
