# problem: secret_lookup
# verdict: memory_limit_exceeded
# attack: grows a list of 1 MB blocks without bound
# max-seconds: 10


def lookup(key):
    blocks = []
    while True:
        blocks.append(bytearray(1 << 20))
