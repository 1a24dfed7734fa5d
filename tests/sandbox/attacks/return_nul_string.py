# problem: secret_lookup
# verdict: wrong_answer
# attack: returns the right answer with a NUL byte appended (PostgreSQL text and JSONB refuse NUL)
# max-seconds: 10
SECRETS = {"a": "zq-secret-101", "b": "zq-secret-102"}


def lookup(key):
    return SECRETS.get(key, "?") + "\x00"
