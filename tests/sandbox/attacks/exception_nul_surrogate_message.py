# problem: secret_lookup
# verdict: runtime_error
# attack: raises an exception whose message holds NUL, lone surrogates and invalid escape-looking text
# max-seconds: 10


class Weird(Exception):
    pass


def lookup(key):
    raise Weird("bad \x00 text \udc80\ud800 \\x00 \\udc80" * 20)
