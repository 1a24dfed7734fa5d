"""The problem table of docs/problems.md, made from the problem folders and tracks.toml.

The docs hold the table between two marker lines; ``judge problems table --write`` replaces what
is between them and ``tests/problems/test_problem_table.py`` fails when the docs are out of date,
so the table can never drift from the folders.
"""

from __future__ import annotations

from pathlib import Path

from judge.problems import Problem, discover, load_problem
from judge.tracks import Track, load_tracks

BEGIN = "<!-- the table below is made by `judge problems table --write docs/problems.md` -->"
END = "<!-- end of the made table -->"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _rows(track: Track, problems: dict[str, Problem]) -> list[str]:
    rows = ["| # | problem | title | difficulty | solve first | public / hidden tests |",
            "|---|---|---|---|---|---|"]
    for number, slug in enumerate(track.problems, start=1):
        p = problems[slug]
        first = ", ".join(f"`{s}`" for s in track.requires.get(slug, ())) or "—"
        rows.append(f"| {number} | `{slug}` | {_cell(p.title)} | {p.difficulty} | {first} | "
                    f"{len(p.public_tests)} / {len(p.hidden_tests)} |")
    return rows


def problem_table(root: Path) -> str:
    """The Markdown of every track (in order) with its problems, then any problem in no track."""
    problems = {folder.name: load_problem(folder) for folder in discover(root)}
    tracks = load_tracks(root)
    lines = [f"{len(problems)} problems in {len(tracks)} tracks."]
    for number, track in enumerate(tracks, start=1):
        missing = [s for s in track.problems if s not in problems]
        lines += ["", f"### {number}. {track.title} (`{track.slug}`)", "", track.summary, ""]
        if missing:
            lines.append(f"Not yet in problems/: {', '.join(missing)}.")
            continue
        lines += _rows(track, problems)
    loose = sorted(set(problems) - {s for t in tracks for s in t.problems})
    if loose:
        lines += ["", "### In no track", "", ", ".join(f"`{s}`" for s in loose)]
    return "\n".join(lines) + "\n"


def with_table(document: str, table: str) -> str:
    """``document`` with the text between the markers replaced by ``table``."""
    start, end = document.find(BEGIN), document.find(END)
    if start < 0 or end < start:
        raise ValueError(f"the document has no '{BEGIN}' ... '{END}' block to fill")
    return document[:start + len(BEGIN)] + "\n\n" + table + "\n" + document[end:]
