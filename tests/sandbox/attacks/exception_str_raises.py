# problem: secret_lookup
# verdict: runtime_error
# attack: raises an exception whose __str__ itself raises, and whose class name is built at run time from odd characters
# max-seconds: 10


class Nasty(Exception):
    def __str__(self):
        raise RuntimeError("str failed \x00\udc80")


Nasty.__name__ = "Nasty\u202e\ufeffName"


def lookup(key):
    raise Nasty()
