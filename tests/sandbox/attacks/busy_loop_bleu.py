# problem: bleu_1gram
# verdict: time_limit_exceeded
# attack: a plain busy loop on the first public test of a 68-test problem: the run must stop there, not wait out every test
# max-seconds: 7


def bleu_1gram(reference, candidate):
    while True:
        pass
