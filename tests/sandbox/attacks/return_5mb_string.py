# problem: secret_lookup
# verdict: runtime_error
# attack: an honest return of a 5 MB string: the claim the learner side writes is over the cap and must be refused, not passed to the host
# max-seconds: 10


def lookup(key):
    return "zq-secret-101" * 400_000
