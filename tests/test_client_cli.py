"""judge-client, the command-line client: against a real `judge serve` (configure, fetch,
submit, status, list, a bad token), against no server at all, and its parts alone (the
configuration file, the errors it explains, following a submission) on httpx's MockTransport."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from judge_client import config
from judge_client.cli import app
from judge_client.client import JudgeClient
from judge_client.errors import ClientError
from sandbox.docker_runner import DockerSandbox
from tests.utils.service_fixtures import Serve, free_port, start_serve

# On one parallel worker: the module's `judge serve` (about 20 s to start) starts once, not once
# for each worker its tests were spread over.
pytestmark = pytest.mark.xdist_group("client-cli")

ROOT = Path(__file__).resolve().parent.parent
BLEU = ROOT / "problems" / "bleu_1gram"


def client_cli(*args: str, home: Path, cwd: Path | None = None,
               env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`judge-client ...` as a process of its own, with its configuration under ``home``."""
    environment = {key: value for key, value in os.environ.items() if not key.startswith("JUDGE_CLIENT_")}
    # PYTHONPATH: until the project is installed again the editable finder does not know the package.
    environment.update(XDG_CONFIG_HOME=str(home), PYTHONPATH=str(ROOT), COLUMNS="200", **(env or {}))
    return subprocess.run([sys.executable, "-m", "judge_client", *args], capture_output=True, text=True,
                          cwd=cwd or ROOT, env=environment, timeout=300)


# --- against a real `judge serve` -------------------------------------------------------------


@pytest.fixture(scope="module")
def shipped_serve(docker_sandbox: DockerSandbox, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Serve]:
    """`judge serve` on the problems the repository ships (the suite's own serve has the test
    fixtures' problems), on a data folder of its own."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("JUDGE_PROBLEMS_DIR", str(ROOT / "problems"))
        serve = start_serve(tmp_path_factory.mktemp("client-serve"))
    yield serve
    serve.stop()


@pytest.fixture(scope="module")
def configured(shipped_serve: Serve, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A configuration home for the serve's first learner, written by `configure`."""
    home = tmp_path_factory.mktemp("client-home")
    token = shipped_serve.learners[0]
    done = client_cli("configure", "--url", shipped_serve.base + "/", "--token", token, home=home)
    assert done.returncode == 0, done.stderr
    assert token not in done.stdout and "jt_..." in done.stdout
    return home


@pytest.mark.docker
@pytest.mark.slow
def test_fetch_writes_the_problem_and_keeps_a_changed_solution(configured: Path, tmp_path: Path) -> None:
    done = client_cli("fetch", "bleu_1gram", "--dir", str(tmp_path), home=configured)
    assert done.returncode == 0, done.stderr
    folder = tmp_path / "bleu_1gram"
    assert (folder / "README.md").read_text().startswith("# BLEU-1 for one sentence pair")
    assert (folder / "bleu_1gram.py").read_text() == (BLEU / "starter.py").read_text()
    public = json.loads((folder / "public_tests.json").read_text())
    shipped = json.loads((BLEU / "tests" / "public.json").read_text())
    assert [(t["name"], t["args"], t["expected"]) for t in public] == [
        (t["name"], t["args"], t["expected"]) for t in shipped]

    (folder / "bleu_1gram.py").write_text("def bleu_1gram(reference, candidate):\n    return 0.5\n")
    refused = client_cli("fetch", "bleu_1gram", "--dir", str(tmp_path), home=configured)
    assert refused.returncode == 2 and "has changes of yours" in refused.stderr and "--force" in refused.stderr
    assert "return 0.5" in (folder / "bleu_1gram.py").read_text()
    forced = client_cli("fetch", "bleu_1gram", "--dir", str(tmp_path), "--force", "--json", home=configured)
    assert forced.returncode == 0, forced.stderr
    assert json.loads(forced.stdout)["solution"] == str(folder / "bleu_1gram.py")
    assert (folder / "bleu_1gram.py").read_text() == (BLEU / "starter.py").read_text()


@pytest.mark.docker
@pytest.mark.slow
def test_submitting_the_reference_is_accepted_with_status_zero(configured: Path, tmp_path: Path) -> None:
    assert client_cli("fetch", "bleu_1gram", "--dir", str(tmp_path), home=configured).returncode == 0
    solution = tmp_path / "bleu_1gram" / "bleu_1gram.py"
    solution.write_text((BLEU / "reference.py").read_text())
    done = client_cli("submit", str(solution), home=configured)  # the problem from fetch's record
    assert done.returncode == 0, done.stdout + done.stderr
    assert "accepted" in done.stdout and "score 1.00" in done.stdout
    assert "Traceback" not in done.stderr


@pytest.mark.docker
@pytest.mark.slow
def test_a_wrong_solution_shows_its_first_failing_public_test_with_status_one(configured: Path) -> None:
    wrong = BLEU / "wrong" / "percentage.py"
    done = client_cli("submit", str(wrong), "--problem", "bleu_1gram", home=configured)
    assert done.returncode == 1, done.stdout + done.stderr
    out = done.stdout
    assert "wrong_answer" in out and "first failing public test: seed_clipping_and_penalty" in out
    assert '["a", "a", "b", "c"], ["a", "a", "a"]' in out  # its arguments
    assert "0.47768754038252614" in out and "47.76875403825262" in out  # expected, actual
    assert "looks like a percentage" in out  # the judge's explanation
    assert "hidden tests:" in out

    as_json = client_cli("submit", str(wrong), "--problem", "bleu_1gram", "--mode", "run", "--json",
                         home=configured)
    assert as_json.returncode == 1, as_json.stderr
    run = json.loads(as_json.stdout)
    assert run["mode"] == "run" and run["status"] == "done" and run["verdict"] == "wrong_answer"

    listed = client_cli("list", "--problem", "bleu_1gram", "--limit", "1", "--json", home=configured)
    assert listed.returncode == 0, listed.stderr
    [newest] = json.loads(listed.stdout)["items"]
    assert newest["id"] == run["id"]
    table = client_cli("list", "--problem", "bleu_1gram", home=configured)
    assert table.returncode == 0 and "wrong_answer" in table.stdout and str(run["id"]) in table.stdout
    shown = client_cli("status", str(run["id"]), home=configured)
    assert shown.returncode == 0 and "seed_clipping_and_penalty" in shown.stdout


@pytest.mark.docker
@pytest.mark.slow
def test_no_wait_queues_and_status_reads_it_later(configured: Path) -> None:
    done = client_cli("submit", str(BLEU / "reference.py"), "--problem", "bleu_1gram", "--no-wait", "--json",
                      home=configured)
    assert done.returncode == 0, done.stderr
    sent = json.loads(done.stdout)
    assert sent["status"] in ("queued", "running", "done")
    missing = client_cli("status", str(sent["id"] + 10_000), home=configured)
    assert missing.returncode == 2 and f"no submission {sent['id'] + 10_000}" in missing.stderr


@pytest.mark.docker
@pytest.mark.slow
def test_a_bad_token_or_an_unknown_problem_is_explained_with_status_two(configured: Path) -> None:
    done = client_cli("list", home=configured, env={"JUDGE_CLIENT_TOKEN": "jt_not-a-real-token"})
    assert done.returncode == 2
    assert "refused the token" in done.stderr and "configure --token" in done.stderr
    assert "Traceback" not in done.stderr
    unknown = client_cli("fetch", "no_such_problem", home=configured)
    assert unknown.returncode == 2 and "no problem 'no_such_problem'" in unknown.stderr


# --- without a server ---------------------------------------------------------------------------


def test_a_server_that_is_away_is_named_with_what_to_check(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    done = client_cli("list", home=tmp_path, env={"JUDGE_CLIENT_URL": url, "JUDGE_CLIENT_TOKEN": "jt_x"})
    assert done.returncode == 2
    assert f"cannot reach the judge at {url}" in done.stderr and "judge serve" in done.stderr
    assert "Traceback" not in done.stderr
    as_json = client_cli("submit", str(BLEU / "reference.py"), "--problem", "bleu_1gram", "--json",
                         home=tmp_path, env={"JUDGE_CLIENT_URL": url, "JUDGE_CLIENT_TOKEN": "jt_x"})
    assert as_json.returncode == 2 and json.loads(as_json.stdout)["error"]["code"] == "unreachable"


def test_nothing_configured_says_how_to_configure(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["list"], env={"XDG_CONFIG_HOME": str(tmp_path), "JUDGE_CLIENT_URL": "",
                                                    "JUDGE_CLIENT_TOKEN": ""})
    assert result.exit_code == 2
    assert "no judge URL is configured" in result.output and "judge-client configure" in result.output


def test_configure_stores_a_private_file_and_the_environment_wins(tmp_path: Path) -> None:
    runner = CliRunner()
    env = {"XDG_CONFIG_HOME": str(tmp_path), "JUDGE_CLIENT_URL": "", "JUDGE_CLIENT_TOKEN": ""}
    token = "jt_abcdefghijklmnopqrstuvwxyz0123"
    result = runner.invoke(app, ["configure", "--url", "http://judge.example:8000/", "--token", token], env=env)
    assert result.exit_code == 0, result.output
    path = tmp_path / "metrics-judge" / "client.toml"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert config.read_file(path) == {"url": "http://judge.example:8000", "token": token}
    shown = runner.invoke(app, ["configure"], env=env)
    assert token not in shown.output and "jt_...0123" in shown.output and "(from file)" in shown.output

    runner.invoke(app, ["configure", "--url", "https://other.example"], env=env)  # the token is kept
    assert config.read_file(path) == {"url": "https://other.example", "token": token}
    overridden = runner.invoke(app, ["configure", "--json"],
                               env={**env, "JUDGE_CLIENT_TOKEN": "jt_from_the_environment_0000"})
    assert json.loads(overridden.output) == {
        "path": str(path), "url": "https://other.example", "url_from": "file",
        "token": "jt_...0000", "token_from": "environment"}

    bad = runner.invoke(app, ["configure", "--url", "judge.example"], env=env)
    assert bad.exit_code == 2 and "must start with http:// or https://" in bad.output


def test_the_config_file_falls_back_to_dot_config_and_reports_a_broken_file(tmp_path: Path) -> None:
    assert config.config_path({"XDG_CONFIG_HOME": ""}) == Path.home() / ".config" / "metrics-judge" / "client.toml"
    broken = tmp_path / "client.toml"
    broken.write_text("url = \n")
    with pytest.raises(config.ConfigError, match="cannot read"):
        config.read_file(broken)


def mock(handler: Callable[[httpx.Request], httpx.Response]) -> JudgeClient:
    return JudgeClient("http://judge.test", "jt_token", transport=httpx.MockTransport(handler))


def error(status: int, code: str, message: str, **headers: str) -> Callable[[httpx.Request], httpx.Response]:
    body = {"error": {"code": code, "message": message, "param": None, "request_id": "r1"}}
    return lambda request: httpx.Response(status, json=body, headers=headers)


@pytest.mark.parametrize("handler, says", [
    (error(401, "unauthorized", "the API token is not valid"),
     ["refused the token", "configure --token", "http://judge.test/account (API tokens)"]),
    (error(404, "not_found", "no problem 'x'"), ["not found: no problem 'x'"]),
    (error(413, "too_large", "the code is larger than 64 KiB"), ["too large: the code is larger than 64 KiB"]),
    (error(422, "invalid_input", "mode: Input should be 'submit'"), ["mode: Input should be 'submit'"]),
    (error(429, "queue_full", "5 submissions are waiting", **{"Retry-After": "7"}),
     ["5 submissions are waiting", "try again in 7 s"]),
    (lambda request: httpx.Response(502, text="<html>Bad Gateway</html>"), ["HTTP 502", "Bad Gateway"]),
])
def test_error_answers_become_messages_that_say_what_to_do(
        handler: Callable[[httpx.Request], httpx.Response], says: list[str]) -> None:
    with pytest.raises(ClientError) as caught, mock(handler) as client:
        client.problem("x")
    text = f"{caught.value.message} {caught.value.hint}"
    assert all(part in text for part in says), text


@pytest.mark.parametrize("url", ["http://judge.test/api/v1", "http://judge.test/api/v1/", "https://j.test/x/API/V1"])
def test_a_url_with_the_api_prefix_is_refused_with_the_base_to_give(tmp_path: Path, url: str) -> None:
    with pytest.raises(config.ConfigError) as caught:
        config.save(tmp_path / "client.toml", url, None)
    assert "ends in /api/v1" in str(caught.value) and url.rstrip("/")[: -len("/api/v1")] in str(caught.value)
    assert not (tmp_path / "client.toml").exists()
    with pytest.raises(config.ConfigError):
        config.load({"JUDGE_CLIENT_URL": url, "XDG_CONFIG_HOME": str(tmp_path)})


def test_a_time_out_is_its_own_message() -> None:
    def slow(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("timed out", request=request)

    with pytest.raises(ClientError) as caught, mock(slow) as client:
        client.submission(1)
    assert caught.value.code == "timeout" and "did not answer in time" in caught.value.message


def submission(status: str, verdict: str | None = None) -> dict[str, Any]:
    return {"id": 7, "status": status, "verdict": verdict, "score": 1.0 if verdict else None}


def test_follow_reads_the_event_stream_as_it_comes() -> None:
    stream = (": keep-alive\n\n"
              f"event: status\ndata: {json.dumps(submission('queued'))}\n\n"
              f"event: status\ndata: {json.dumps(submission('running'))}\n\n"
              f"event: status\ndata: {json.dumps({**submission('done', 'accepted'), 'tests': []})}\n\n")
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        assert request.url.path == "/api/v1/submissions/7/events"
        return httpx.Response(200, text=stream, headers={"content-type": "text/event-stream"})

    with mock(handler) as client:
        final = client.follow(7, lambda state: seen.append(state["status"]), timeout=10)
    assert seen == ["queued", "running", "done"] and final["verdict"] == "accepted"


NO_STREAM = httpx.Response(404, json={"error": {"code": "not_found", "message": "Not Found"}})
# What a proxy that holds streams back until they end may pass on: no event at all.
EMPTY_STREAM = httpx.Response(200, text=": keep-alive\n\n", headers={"content-type": "text/event-stream"})


@pytest.mark.parametrize("events", [NO_STREAM, EMPTY_STREAM], ids=["no route", "no event"])
def test_follow_falls_back_to_long_polls_without_a_useful_event_stream(events: httpx.Response) -> None:
    answers = iter([submission("running"), submission("done", "wrong_answer")])
    asked: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/events"):
            assert not asked, "the stream was opened again after polls began"
            return events
        asked.append(str(request.url.params))
        return httpx.Response(200, json=next(answers))

    seen: list[str] = []
    with mock(handler) as client:
        final = client.follow(7, lambda state: seen.append(state["status"]), timeout=60)
    assert final["verdict"] == "wrong_answer" and seen == ["running", "done"]
    assert all("until=change" in query and "wait=" in query for query in asked)


def test_list_sends_the_filters_it_is_given() -> None:
    asked: list[dict[str, str]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        asked.append(dict(request.url.params))
        return httpx.Response(200, json={"items": [], "total": 0, "limit": 5, "offset": 0})

    with mock(handler) as client:
        client.submissions("bleu_1gram", 5, learner="ann", assignment=3, verdict="wrong_answer", late=False)
        client.submissions(None, 20)
    assert asked == [{"limit": "5", "problem": "bleu_1gram", "learner": "ann", "assignment": "3",
                      "verdict": "wrong_answer", "late": "false"}, {"limit": "20"}]
