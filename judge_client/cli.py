"""``judge-client``: configure, fetch, submit, status and list, over the judge's HTTP API.

Exit status: 0 when the command did what it was asked (for ``submit``: the verdict is
accepted, or with --no-wait the submission was queued); 1 when a submission was judged and not
accepted; 2 when nothing could be done (not configured, the server unreachable or refusing,
a bad argument, a file that would be overwritten); 3 when it was judged for an assignment that
holds its grades, so its result is not shown until they are released. Every command takes
--json for scripts: the API's JSON on stdout, and an error as ``{"error": {...}}`` on stdout too.

Whatever the judge sent is printed through ``terminal_text``: as ``Text``, never as Rich markup,
with every control character shown as an escape (see that module for why).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.text import Text

from judge_client import config, render
from judge_client.client import JudgeClient
from judge_client.errors import ClientError
from judge_client.terminal_text import inert, json_text, text
from judge_client.workspace import WorkspaceError, problem_of, write_problem

ACCEPTED, NOT_ACCEPTED, FAILED, HELD = 0, 1, 2, 3

app = typer.Typer(help="Fetch problems from a metrics judge, submit solutions and follow their verdicts.",
                  no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)

JsonOption = Annotated[bool, typer.Option("--json", help="print the API's JSON (for scripts), not tables")]


class Mode(StrEnum):
    submit = "submit"
    run = "run"


def _out() -> Console:
    # Made per call, so that whatever stdout is at the time (a pipe, a test's capture) is used.
    return Console(highlight=False, soft_wrap=False)


def _err() -> Console:
    return Console(stderr=True, highlight=False)


def _print_json(data: object) -> None:
    sys.stdout.write(json_text(data) + "\n")


@contextmanager
def _reported(as_json: bool) -> Iterator[None]:
    """Turn the client's known failures into a message (or JSON) and exit status 2, never a
    traceback."""
    try:
        yield
    except (ClientError, WorkspaceError, config.ConfigError) as exc:
        message = getattr(exc, "message", str(exc))
        hint = getattr(exc, "hint", "")
        if as_json:
            payload = exc.as_json() if isinstance(exc, ClientError) else {
                "error": {"code": "client_error", "status": None, "message": message, "hint": hint or None}}
            _print_json(payload)
        console = _err()
        console.print(Text.assemble(("error: ", "bold red"), text(message)))
        if hint:
            console.print(text(hint, "dim"))
        raise typer.Exit(FAILED) from None
    except KeyboardInterrupt:
        _err().print("interrupted")
        raise typer.Exit(130) from None


def _client() -> JudgeClient:
    settings = config.load()
    return JudgeClient(settings.url.value, settings.token.value)


@app.command()
def configure(
    url: Annotated[str | None, typer.Option(help="the judge's base URL, e.g. http://localhost:8000")] = None,
    token: Annotated[str | None, typer.Option(help="your API token (jt_...)")] = None,
    as_json: JsonOption = False,
) -> None:
    """Store the judge's URL and your token; with neither, show the current configuration."""
    with _reported(as_json):
        path = config.config_path()
        if url is not None or token is not None:
            config.save(path, url, token)
        current = config.load()
        shown = {"path": str(current.path),
                 "url": current.url.value or None, "url_from": current.url.source or None,
                 "token": config.masked(current.token.value) if current.token.value else None,
                 "token_from": current.token.source or None}
        if as_json:
            _print_json(shown)
            return
        console = _out()
        if url is not None or token is not None:
            console.print(Text.assemble("saved to ", text(path), " (readable by you only)"))
        variables = {"url": config.URL_VARIABLE, "token": config.TOKEN_VARIABLE}
        for name in ("url", "token"):
            value, source = shown[name], shown[f"{name}_from"]
            origin = f"${variables[name]}" if source == "environment" else source
            where = f"  (from {origin})" if source else ""
            console.print(Text.assemble(f"{name:5} ", text(value) if value else ("not set", "yellow"),
                                        text(where)))
        if url is None and token is None:
            console.print(Text.assemble("file  ", text(path), "" if path.exists() else " (none yet)"))


@app.command()
def fetch(
    problem: Annotated[str, typer.Argument(help="the problem's name, e.g. bleu_1gram")],
    directory: Annotated[Path, typer.Option("--dir", help="where to make the problem's folder")] = Path("."),
    force: Annotated[bool, typer.Option(help="replace a solution file you changed with the starter")] = False,
    as_json: JsonOption = False,
) -> None:
    """Write the statement, a starter and the public tests into a folder named after the problem."""
    with _reported(as_json), _client() as client:
        detail = client.problem(problem)
        fetched = write_problem(detail, directory, force)
        if as_json:
            _print_json({"problem": detail["slug"], "version": detail.get("version"),
                         "folder": str(fetched.folder), "solution": str(fetched.solution),
                         "files": [str(path) for path in fetched.written]})
            return
        console = _out()
        console.print(Text.assemble(text(detail.get("title") or detail["slug"], "bold"), " into ",
                                    text(fetched.folder)))
        for path in fetched.written:
            console.print(Text.assemble("  ", text(path.name)))
        console.print(Text.assemble("edit ", text(fetched.solution), ", then: judge-client submit ",
                                    text(fetched.solution)))


def _read_code(file: Path) -> str:
    try:
        return file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ClientError(f"no file {file}", code="no_file") from None
    except UnicodeDecodeError:
        raise ClientError(f"{file} is not UTF-8 text", code="not_text") from None
    except OSError as exc:
        raise ClientError(f"cannot read {file}: {exc}", code="no_file") from None


def _progress_text(state: dict[str, Any]) -> str:
    """The spinner's line for a state the server sent: inert, and shown by a column that reads
    no markup (``_progress``)."""
    return inert(f"submission {state.get('id')}: {state.get('status')}")


def _progress() -> Progress:
    return Progress(SpinnerColumn(), TextColumn("{task.description}", markup=False), TimeElapsedColumn(),
                    console=_err(), transient=True)


def _progress_line(progress: Progress, task: Any) -> Callable[[dict[str, Any]], None]:
    def on_change(state: dict[str, Any]) -> None:
        progress.update(task, description=_progress_text(state))
    return on_change


@app.command()
def submit(
    file: Annotated[Path, typer.Argument(help="your solution (a .py file)")],
    problem: Annotated[str | None, typer.Option(
        help="the problem; default: the one `fetch` wrote the file's folder for")] = None,
    mode: Annotated[Mode, typer.Option(help="submit: every test; run: the public tests only")] = Mode.submit,
    wait: Annotated[bool, typer.Option("--wait/--no-wait", help="follow it until the verdict")] = True,
    timeout: Annotated[float, typer.Option(min=1, help="give up following after this many seconds")] = 600,
    assignment: Annotated[int | None, typer.Option(min=1, help=(
        "hand it in for this assignment (refused outside its window); default: the assignment of "
        "your courses that takes it now, if any"))] = None,
    as_json: JsonOption = False,
) -> None:
    """Send a solution, follow it live (queued -> running -> done) and show the verdict, and which
    assignment it counts for.

    Exit status 0 when accepted, 1 when judged otherwise, 2 when it could not be judged."""
    accepted = False
    with _reported(as_json):
        code = _read_code(file)
        slug = problem or problem_of(file)
        if not slug:
            raise ClientError(f"which problem is {file} for?",
                              "pass --problem NAME, or submit from a folder `judge-client fetch` made",
                              code="no_problem")
        with _client() as client:
            sent = client.submit(slug, code, mode.value, assignment)
            if not wait:
                if as_json:
                    _print_json(sent)
                else:
                    # The id is an int (client.submit makes sure); the status is the server's text.
                    _out().print(Text.assemble(f"submission {sent['id']} is ", text(sent.get("status")),
                                               f"; `judge-client status {sent['id']}` shows its verdict"))
                    render.show_credit(_out(), sent)
                return
            if as_json:
                final = client.follow(int(sent["id"]), lambda _state: None, timeout)
                _print_json(final)
            else:
                with _progress() as progress:
                    task = progress.add_task(_progress_text(sent), total=None)
                    final = client.follow(int(sent["id"]), _progress_line(progress, task), timeout)
                render.show_submission(_out(), final)
            accepted = final.get("verdict") == "accepted"
    raise typer.Exit(ACCEPTED if accepted else HELD if final.get("held") is True else NOT_ACCEPTED)


@app.command()
def status(
    submission_id: Annotated[int, typer.Argument(metavar="ID", min=1, help="the submission's id")],
    as_json: JsonOption = False,
) -> None:
    """Show one submission: its state, verdict, score and first failing public test."""
    with _reported(as_json), _client() as client:
        found = client.submission(submission_id)
        if as_json:
            _print_json(found)
        else:
            render.show_submission(_out(), found)


@app.command("list")
def list_submissions(
    problem: Annotated[str | None, typer.Option(help="only this problem's submissions")] = None,
    limit: Annotated[int, typer.Option(min=1, max=100, help="how many, newest first")] = 20,
    learner: Annotated[str | None, typer.Option(help="only this learner's (for their instructors)")] = None,
    assignment: Annotated[int | None, typer.Option(min=1, help="only those handed in for it")] = None,
    verdict: Annotated[str | None, typer.Option(help="only those with it, e.g. wrong_answer")] = None,
    late: Annotated[bool | None, typer.Option("--late/--not-late", help="counted late, or not")] = None,
    as_json: JsonOption = False,
) -> None:
    """Your submissions, newest first (an instructor's: also their courses' learners')."""
    with _reported(as_json), _client() as client:
        page = client.submissions(problem, limit, learner, assignment, verdict, late)
        if as_json:
            _print_json(page)
        else:
            _out().print(render.submissions_table(page))


def main() -> None:
    """The ``judge-client`` entry point (also ``python -m judge_client``, under the same name)."""
    app(prog_name="judge-client")
