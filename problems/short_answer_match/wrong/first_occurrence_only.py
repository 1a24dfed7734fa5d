# verdict: wrong_answer
# Mistake: checks only the first occurrence of the phrase, so "concatenate the cat" fails.
import re
import unicodedata

# A space or comma between a digit and exactly three digits is a thousands separator.
GROUP_SEPARATOR = re.compile(r"(?<=[0-9])[ ,](?=[0-9]{3}(?![0-9]))")


def _normalize(text):
    text = unicodedata.normalize("NFKC", text).casefold()
    text = " ".join(text.split())
    return GROUP_SEPARATOR.sub("", text)


def _is_word(ch):
    return ch.isalnum() or ch == "_"


def _contains_phrase(haystack, needle):
    start = haystack.find(needle)
    while start != -1:
        end = start + len(needle)
        if (start == 0 or not _is_word(haystack[start - 1])) and (
            end == len(haystack) or not _is_word(haystack[end])
        ):
            return True
        return False
    return False


def short_answer_match(reply: str, expected: str, aliases: list[str] = []) -> bool:  # noqa: B006
    """True when the expected phrase, or one of its aliases, appears in the reply as whole words."""
    haystack = _normalize(reply)
    for phrase in [expected, *aliases]:
        needle = _normalize(phrase)
        if needle and _contains_phrase(haystack, needle):
            return True
    return False
