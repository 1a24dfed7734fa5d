# problem: secret_lookup
# verdict: wrong_answer
# attack: writes invalid UTF-8, NUL, CESU-encoded surrogates and terminal escapes straight to fd 1 and fd 2, then returns a wrong value
# max-seconds: 10
import os
import sys


def lookup(key):
    os.write(1, b"\xff\xfe\x00\xed\xa0\x80\xed\xb2\x80\xc0\x80\x1b[2J\x1b]0;title\x07\r\n")
    os.write(2, b"\x80\x00\xf4\x90\x80\x80")
    print("surrogate:", "\udc80", file=sys.stdout)
    return "zq\x00"
