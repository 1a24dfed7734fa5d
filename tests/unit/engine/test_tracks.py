"""problems/tracks.toml's format: what a track may say, the errors an author reads, and the next
problem a learner is pointed at."""

from __future__ import annotations

import pytest

from judge.errors import ProblemError
from judge.tracks import covering, next_problem, parse_tracks

GOOD = """
[[tracks]]
slug = "first"
title = "First"
summary = "The start."
problems = ["a", "b", "c"]
[tracks.requires]
c = ["a"]

[[tracks]]
slug = "second"
title = "Second"
summary = "Then this."
problems = ["d", "e"]
[tracks.requires]
e = ["b", "d"]
"""


def test_a_good_file_gives_the_tracks_in_order() -> None:
    first, second = parse_tracks(GOOD)
    assert (first.slug, first.problems, first.requires) == ("first", ("a", "b", "c"), {"c": ("a",)})
    assert second.requires == {"e": ("b", "d")}  # a requirement may be in an earlier track
    assert first.neighbours("a") == (None, "b") and first.neighbours("c") == ("b", None)


@pytest.mark.parametrize(("change", "message"), [
    (("", "x = 1\n"), "unknown key(s) x"),
    (('slug = "first"', 'slug = "First!"'), "track 1: 'slug' must match"),
    (('slug = "second"', 'slug = "first"'), "defined twice"),
    (('problems = ["d", "e"]', 'problems = ["d", "a"]'), "'a' is already in track 'first'"),
    (('problems = ["a", "b", "c"]', 'problems = ["a", "b", "a"]'), "'a' is listed twice"),
    (('problems = ["a", "b", "c"]', 'problems = ["a", "B", "c"]'), "'B' is not a problem slug"),
    (('problems = ["a", "b", "c"]', "problems = []"), "'problems' is empty"),
    (('c = ["a"]', 'a = ["c"]'), "requires.a: 'c' must come before 'a'"),
    (('c = ["a"]', 'c = ["c"]'), "'c' must come before 'c'"),
    (('e = ["b", "d"]', 'e = ["f"]'), "requires.e: 'f' must come before"),
    (('c = ["a"]', 'z = ["a"]'), "requires.z: 'z' is not one of this track's problems"),
    (('title = "First"', 'title = ""'), "'title' must be a non-empty string"),
    (('summary = "Then this."', "colour = 1"), "unknown key(s) colour"),
    (("[[tracks]]", "[[tracks"), "not valid TOML"),
])
def test_each_mistake_is_named_with_its_track(change: tuple[str, str], message: str) -> None:
    old, new = change
    text = new + GOOD if not old else GOOD.replace(old, new, 1)
    with pytest.raises(ProblemError, match="tracks.toml") as caught:
        parse_tracks(text)
    assert message in str(caught.value)


def test_no_tracks_at_all_is_an_error() -> None:
    with pytest.raises(ProblemError, match=r"at least one \[\[tracks\]\]"):
        parse_tracks("")


def test_covering_names_loose_folders_and_missing_problems() -> None:
    tracks = parse_tracks(GOOD)
    assert covering(tracks, {"a", "b", "c", "d", "e"}) == []
    assert covering(tracks, {"a", "b", "c", "d", "e", "f"}) == ["problem 'f' is in no track of tracks.toml"]
    assert covering(tracks, {"a", "b", "c", "d"}) == ["tracks.toml names 'e', which has no problem folder"]


def test_next_is_the_first_unsolved_problem_whose_requirements_are_solved() -> None:
    first, second = parse_tracks(GOOD)
    everything = {"a", "b", "c", "d", "e"}
    assert next_problem(first, set(), everything) == "a"
    assert next_problem(first, {"b"}, everything) == "a"
    assert next_problem(first, {"a"}, everything) == "b"
    assert next_problem(first, {"a", "b", "c"}, everything) is None
    # e needs b (another track) and d: with d solved but not b, nothing is ready; the first open one.
    assert next_problem(second, {"d"}, everything) == "e"
    assert next_problem(second, set(), everything) == "d"
    # c is ready once a is, even when b, before it, is not published.
    assert next_problem(first, {"a"}, {"a", "c"}) == "c"
