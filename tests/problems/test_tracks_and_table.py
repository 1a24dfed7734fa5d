"""The shipped curriculum: problems/tracks.toml puts every problem folder in exactly one track, and
the docs' problem table is the one made from the folders."""

from __future__ import annotations

from pathlib import Path

from judge.problem_table import BEGIN, END, problem_table
from judge.problems import discover
from judge.tracks import covering, load_tracks

ROOT = Path(__file__).resolve().parents[2]
PROBLEMS = ROOT / "problems"


def test_every_problem_is_in_exactly_one_track() -> None:
    tracks = load_tracks(PROBLEMS)
    assert tracks, "problems/tracks.toml defines no track"
    assert covering(tracks, {folder.name for folder in discover(PROBLEMS)}) == []


def test_the_docs_table_is_made_from_the_folders() -> None:
    document = (ROOT / "docs" / "problems.md").read_text(encoding="utf-8")
    made = document[document.index(BEGIN) + len(BEGIN):document.index(END)].strip()
    assert made == problem_table(PROBLEMS).strip(), (
        "docs/problems.md is out of date: run `judge problems table --write docs/problems.md`")
