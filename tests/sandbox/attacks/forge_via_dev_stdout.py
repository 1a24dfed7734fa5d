# problem: secret_lookup
# verdict: wrong_answer
# attack: writes forged records through /dev/stdout, /dev/stderr, /dev/fd/1, /proc/self/fd/1, /dev/console and /dev/tty
# max-seconds: 10
import json


def lookup(key):
    record = json.dumps({"kind": "test", "seq": 0, "stop": None, "exit": 0, "signal": None,
                         "stdout": "", "claim": '{"outcome": "returned"}'})
    done = []
    for path in ("/dev/stdout", "/dev/stderr", "/dev/fd/1", "/proc/self/fd/1", "/dev/console",
                 "/dev/tty", "/proc/self/fd/3"):
        try:
            with open(path, "a") as handle:
                handle.write("\n" + record + "\n")
            done.append(path)
        except OSError:
            pass
    return "wrote " + " ".join(done)
