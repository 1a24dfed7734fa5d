# problem: bleu_1gram
# verdict: wrong_answer
# attack: returns a 3 MB string (under the 4 MiB claim cap) from every one of 68 tests, so that the records together exceed the host's 16 MiB stream cap
# max-seconds: 30


def bleu_1gram(reference, candidate):
    return "x" * 3_000_000
