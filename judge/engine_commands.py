"""The `judge` command line: judge a file, browse and validate problems, build the sandbox."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from judge.engine_settings import EngineSettings, engine_settings
from judge.errors import InvalidInput, ProblemError
from judge.problems import discover, find_problem, load_problem
from judge.results import TestStatus, Verdict
from sandbox.interface import SandboxUnavailable

# Grading, validation and Docker's client are imported by the commands that use them: listing
# problems needs none of them, and starts in a fraction of the time.
if TYPE_CHECKING:
    from sandbox.docker_runner import DockerSandbox

app = typer.Typer(help="A judge for exercises that implement text-evaluation metrics.",
                  no_args_is_help=True, pretty_exceptions_enable=False)
problems_app = typer.Typer(help="Browse and validate problems.", no_args_is_help=True)
sandbox_app = typer.Typer(help="Manage the sandbox image.", no_args_is_help=True)
app.add_typer(problems_app, name="problems")
app.add_typer(sandbox_app, name="sandbox")

out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)
EXIT_USAGE = 2


def fail(message: str) -> typer.Exit:
    err.print(f"[red]error:[/red] {message}", highlight=False)
    return typer.Exit(EXIT_USAGE)


def settings() -> EngineSettings:
    """The engine's settings; a value that does not fit ends the command, naming it."""
    try:
        return engine_settings()
    except InvalidInput as exc:
        raise fail(exc.message) from exc


def problems_root() -> Path:
    root = settings().problems_dir
    if not root.is_dir():
        raise fail(f"JUDGE_PROBLEMS_DIR is {str(root)!r}, which is not a folder")
    return root


def open_sandbox() -> DockerSandbox:
    from judge.sandboxes import docker_sandbox

    settings()  # a bad setting is named before any work
    with err.status("Preparing the sandbox...") as status:
        try:
            return docker_sandbox(lambda msg: status.update(f"Sandbox: {msg}"))
        except SandboxUnavailable as exc:
            raise fail(str(exc)) from exc


STATUS_STYLE = {TestStatus.PASSED.value: "green", TestStatus.NOT_RUN.value: "dim"}


def _print_test(test: dict[str, Any], function: str) -> None:
    colour = STATUS_STYLE.get(test["status"], "red")
    line = f"  [{colour}]{test['status']:<22}[/] {test['visibility']:<6} {test['name']}"
    out.print(line, highlight=False)
    if test["status"] in (TestStatus.PASSED.value, TestStatus.NOT_RUN.value):
        return
    args = [repr(a) for a in test.get("args") or []] + [
        f"{k}={v!r}" for k, v in (test.get("kwargs") or {}).items()]
    out.print(f"      call:     {function}({', '.join(args)})", highlight=False)
    for field in ("expected", "actual"):
        text, note = test.get(f"{field}_repr"), test.get(f"{field}_note")
        if text is not None:
            out.print(f"      {field + ':':<9} {text}" + (f"  ({note})" if note else ""), highlight=False)
    if test.get("budget_note"):
        out.print(f"      {test['budget_note']}", highlight=False)
    if test.get("explanation"):
        out.print(f"      why:      {test['explanation']}", highlight=False)
    if test.get("stdout"):
        out.print(f"      stdout:   {test['stdout'][:500]!r}", highlight=False)


def print_report(shown: dict[str, Any], function: str) -> None:
    """A report as ``Report.as_json`` shaped it: the learner's view or the author's."""
    accepted = shown["verdict"] == Verdict.ACCEPTED.value
    style = "green" if accepted else "red"
    peak = shown["peak_memory_bytes"]
    memory = f"  peak memory {peak / 1e6:.1f} MB" if peak is not None else ""
    out.print(f"[bold {style}]{shown['verdict']}[/]  score {shown['score']:.3f} "
              f"({shown['passed']}/{shown['total']})  problem version {shown['problem_version']}"
              f"{memory}")
    if shown["message"]:
        out.print(shown["message"], highlight=False)
    for test in shown["tests"]:
        _print_test(test, function)
    hidden = shown.get("hidden")
    if hidden and hidden["total"]:
        line = f"  hidden tests: {hidden['passed']} of {hidden['total']} passed"
        if hidden["not_run"]:
            line += f", {hidden['not_run']} not run"
        if hidden["first_failure"]:
            line += f"; first failure: {hidden['first_failure']}"
        out.print(line, highlight=False)


@app.command()
def run(
    slug: str,
    file: Path,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    public_only: Annotated[bool, typer.Option("--public-only", help="Skip hidden tests.")] = False,
    full: Annotated[bool, typer.Option(
        "--full", help="The author's view: every hidden test with its name and values.")] = False,
) -> None:
    """Judge FILE against problem SLUG's tests; shows what a learner would see (--full: all)."""
    from judge.grading import grade

    try:
        problem = find_problem(problems_root(), slug)
    except ProblemError as exc:
        raise fail(str(exc)) from exc
    try:
        code = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise fail(f"cannot read {file}: {exc}") from exc
    sandbox = open_sandbox()
    with err.status(f"Judging {file} against {slug}..."):
        try:
            report = grade(problem, code, sandbox, include_hidden=not public_only)
        except SandboxUnavailable as exc:
            raise fail(f"the judge could not run the sandbox: {exc}") from exc
    shown = report.as_json(full=full)
    if as_json:
        sys.stdout.write(json.dumps(shown, ensure_ascii=False) + "\n")
    else:
        print_report(shown, problem.function)
    raise typer.Exit(0 if report.verdict is Verdict.ACCEPTED else 1)


@problems_app.command("list")
def list_problems() -> None:
    """List the problems with their difficulty, tags and test counts."""
    table = Table("slug", "title", "difficulty", "tags", "public", "hidden")
    for folder in discover(problems_root()):
        try:
            p = load_problem(folder)
        except ProblemError as exc:
            table.add_row(folder.name, f"[red]invalid: {exc}[/]", "", "", "", "")
            continue
        table.add_row(p.slug, p.title, p.difficulty, ", ".join(p.tags),
                      str(len(p.public_tests)), str(len(p.hidden_tests)))
    out.print(table)


@problems_app.command("show")
def show_problem(slug: str) -> None:
    """Show a problem's statement, signature, limits and public tests."""
    try:
        p = find_problem(problems_root(), slug)
    except ProblemError as exc:
        raise fail(str(exc)) from exc
    out.print(f"[bold]{p.title}[/] ({p.slug}, {p.difficulty}; version {p.version})")
    out.print(p.signature, highlight=False)
    out.print(f"limits: {p.limits.time_per_test} s per test, {p.limits.memory_mb} MB; checker "
              f"{p.checker.name}", highlight=False)
    out.print()
    out.print(p.statement, highlight=False)
    out.print("[bold]Public tests[/]")
    for t in p.public_tests:
        expected = f"raises {t.raises}" if t.raises else repr(t.expected)
        out.print(f"  {t.name}: args={t.args!r} kwargs={t.kwargs!r} -> {expected}",
                  highlight=False)
    out.print(f"  and {len(p.hidden_tests)} hidden tests")


@problems_app.command("validate")
def validate(slugs: Annotated[list[str] | None, typer.Argument()] = None) -> None:
    """Prove problems: reference accepted twice alike, each wrong solution its declared verdict."""
    from judge.validation import validate_problem

    root = problems_root()
    try:
        problems = ([find_problem(root, s) for s in slugs] if slugs
                    else [load_problem(f) for f in discover(root)])
    except ProblemError as exc:
        raise fail(str(exc)) from exc
    sandbox = open_sandbox()
    failures: list[str] = []
    with err.status("Validating...") as status:
        for problem in problems:
            found = validate_problem(problem, sandbox, lambda m: status.update(f"Validating {m}"))
            mark = "[green]ok[/]" if not found else "[red]FAILED[/]"
            out.print(f"{mark} {problem.slug} ({len(problem.wrong)} wrong solutions)")
            failures += found
    for failure in failures:
        out.print(f"  [red]-[/] {failure}", highlight=False)
    raise typer.Exit(1 if failures else 0)


@problems_app.command("tracks")
def show_tracks() -> None:
    """Show the tracks (problems/tracks.toml) in order, and check that each problem is in one."""
    from judge.tracks import covering, load_tracks

    root = problems_root()
    try:
        tracks = load_tracks(root)
    except ProblemError as exc:
        raise fail(str(exc)) from exc
    for number, track in enumerate(tracks, start=1):
        out.print(f"[bold]{number}. {track.title}[/] ({track.slug}, {len(track.problems)} problems)",
                  highlight=False)
        for slug in track.problems:
            needs = track.requires.get(slug, ())
            out.print(f"   {slug}" + (f"  [dim]after {', '.join(needs)}[/]" if needs else ""),
                      highlight=False)
    problems = covering(tracks, {folder.name for folder in discover(root)})
    for problem in problems:
        out.print(f"[red]-[/] {problem}", highlight=False)
    raise typer.Exit(1 if problems else 0)


@problems_app.command("table")
def table(write: Annotated[Path | None, typer.Option(
        help="replace the made table in this Markdown file instead of printing it")] = None) -> None:
    """Print the problem table of the docs (by track), made from the problem folders."""
    from judge.problem_table import problem_table, with_table

    try:
        made = problem_table(problems_root())
        if write is None:
            sys.stdout.write(made)
            return
        write.write_text(with_table(write.read_text(encoding="utf-8"), made), encoding="utf-8")
    except (ProblemError, ValueError, OSError) as exc:
        raise fail(str(exc)) from exc
    out.print(f"wrote the problem table into {write}", highlight=False)


@sandbox_app.command("build")
def build(
    offline: Annotated[bool, typer.Option(
        "--offline", help="Build from a debootstrap root file system, no registry.")] = False,
    if_missing: Annotated[bool, typer.Option(
        "--if-missing", help="Do nothing when the current image exists.")] = False,
) -> None:
    """Build the sandbox image (from python:3.11-slim, or offline)."""
    from sandbox.docker_runner import connect
    from sandbox.image import build_image, ensure_image

    mode = True if offline else settings().sandbox_offline
    try:
        client = connect()
        with err.status("Building the sandbox image...") as status:
            build = ensure_image if if_missing else build_image
            tag = build(client, mode, lambda m: status.update(m), settings().deployment)
    except SandboxUnavailable as exc:
        raise fail(str(exc)) from exc
    out.print(f"built {tag}")


if __name__ == "__main__":
    app()
