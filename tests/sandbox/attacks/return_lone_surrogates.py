# problem: secret_lookup
# verdict: wrong_answer
# attack: returns strings holding lone surrogates (no UTF-8 encoding exists for them), in the value and as dict keys of a wrong-typed value
# max-seconds: 10


def lookup(key):
    if key == "a":
        return "zq-secret-101\udc80\ud800"
    return {"\udc80\x00": ["\ud83d", "\x00"], "k": "\udfff"}
