# verdict: wrong_answer
# Mistake: a plain regular expression with no boundary rules, so the 2.0 inside "v2.0" is read as
# the first number and "1,23" reads 1 and 23.
import re


def extract_number(text, mode):
    if mode not in ("whole", "first", "last"):
        raise ValueError(mode)
    if mode == "whole":
        if re.fullmatch(r"[+-]?\d+(,\d{3})*(\.\d+)?", text.strip()):
            return float(text.strip().replace(",", ""))
        return None
    found = re.findall(r"-?\d+(?:,\d{3})*(?:\.\d+)?", text)
    if not found:
        return None
    pick = found[0] if mode == "first" else found[-1]
    return float(pick.replace(",", ""))
