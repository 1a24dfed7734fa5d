# problem: secret_lookup
# verdict: output_limit_exceeded
# attack: an endless print loop
# max-seconds: 6


def lookup(key):
    while True:
        print("spam" * 100)
