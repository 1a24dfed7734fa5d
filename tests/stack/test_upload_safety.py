"""Hostile problem uploads through the real route: a 422 JSON error that names the member, never a
500, never a stalled API; shipped slugs cannot be claimed.

The app runs in-process without a worker: nothing here is accepted, so nothing is validated.
"""

from __future__ import annotations

import base64
import bz2
import random
import statistics
import tarfile
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from judge.engine_settings import ROOT
from service.db.models import Role
from service.db.session import session_scope
from service.users import create_user
from tests.unit.engine.test_archives import files_tar, member, tar, tar_bz2_bomb, zipped
from tests.utils.service import bearer
from tests.utils.service_fixtures import problem_files

# The app in-process on the session's database (PostgreSQL here), through its own fixture.
pytestmark = pytest.mark.stack


@pytest.fixture(scope="module")
def api() -> Iterator[TestClient]:
    from api.main import app

    # As a context manager the client keeps one event loop for every request, from any thread:
    # a handler that blocks the loop would hold up the health checks sent alongside it.
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def author(api: TestClient) -> dict[str, str]:
    with session_scope() as session:
        return bearer(create_user(session, "test-upload-author", Role.INSTRUCTOR)[1])


def upload(api: TestClient, headers: dict[str, str], data: bytes, name: str = "p.tar.gz",
           slug: str | None = None) -> Any:
    form = {"slug": slug} if slug else None
    return api.post("/api/v1/problems", headers=headers, files={"archive": (name, data)}, data=form)


def error_of(response: Any, status: int = 422) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "param", "request_id"}
    return str(body["error"]["message"])


def _while_probing(api: TestClient, action: Callable[[], Any]) -> tuple[Any, float, list[float]]:
    """(action's result, its seconds, GET /healthz latencies) with health polled alongside it."""
    latencies: list[float] = []
    done = threading.Event()

    def probe() -> None:
        while not done.is_set():
            started = time.monotonic()
            assert api.get("/healthz").status_code == 200
            latencies.append(time.monotonic() - started)
            time.sleep(0.005)

    prober = threading.Thread(target=probe)
    prober.start()
    started = time.monotonic()
    try:
        result = action()
    finally:
        seconds = time.monotonic() - started
        done.set()
        prober.join()
    return result, seconds, latencies


def test_a_bomb_is_refused_quickly_while_the_api_keeps_answering(api: TestClient,
                                                                 author: dict[str, str]) -> None:
    bombs = [("bomb.tar.bz2", tar_bz2_bomb(8192), "archive: member 'bomb/zeros.bin': the files add up"),
             ("long.tar.bz2", tar_bz2_bomb(2048, tarfile.GNUTYPE_LONGNAME, "././@LongLink"),
              "archive: before the first member: the archive expands to more than 21 MiB")]
    for name, data, expected in bombs:
        response, seconds, latencies = _while_probing(api, lambda: upload(api, author, data, name))  # noqa: B023
        print(f"{name} ({len(data)} bytes): 422 in {seconds * 1000:.0f}ms; health max {max(latencies) * 1000:.1f}ms")
        assert error_of(response).startswith(expected)
        assert seconds < 3 and latencies and max(latencies) < 1, (seconds, latencies)


def test_a_slow_archive_is_read_off_the_event_loop(api: TestClient, author: dict[str, str]) -> None:
    # 16 MiB of text that bzip2 cannot shrink much takes about a second to decompress: long
    # enough that health checks would stall behind it if the archive were read on the loop.
    text = base64.b64encode(random.Random(0).randbytes(12 << 20))
    data = bz2.compress(tar([(member("slow/big.txt"), text)], "w"), 1)
    response, seconds, latencies = _while_probing(
        api, lambda: upload(api, author, data, "slow.tar.bz2", slug="slow_upload"))
    assert "problem.toml" in error_of(response)  # read in full, then refused as a problem
    print(f"slow upload {seconds:.2f}s; health p50 {statistics.median(latencies) * 1000:.1f}ms "
          f"max {max(latencies) * 1000:.1f}ms over {len(latencies)} checks")
    assert seconds > 0.5 and max(latencies) < seconds / 3, (seconds, sorted(latencies)[-3:])


@pytest.mark.parametrize("names", [
    ["p/problem.toml", "p/a", "p/a/b"],
    ["p/problem.toml", "p/a\x00b"],
    ["p/problem.toml", "p/" + "n" * 300],
    ["p/problem.toml", "p/" + "d/" * 12 + "x"],
    ["p/problem.toml", "p/../../x"],
    ["/p/problem.toml"],
], ids=["file-and-folder", "nul", "long", "deep", "dotdot", "absolute"])
def test_odd_member_names_are_422_naming_the_member(api: TestClient, author: dict[str, str],
                                                    names: list[str]) -> None:
    for name, data in [("p.tar.gz", files_tar(names)), ("p.zip", zipped([(n, b"x") for n in names]))]:
        if name == "p.zip" and "\x00" in names[-1]:
            continue  # zipfile cannot write a NUL; tests/unit/engine/test_archives.py patches one in
        message = error_of(upload(api, author, data, name, slug="odd_names"))
        assert message.startswith(f"archive: member {names[-1][:30]!r}"[:-1]), message


def test_a_symlink_member_is_422(api: TestClient, author: dict[str, str]) -> None:
    data = tar([(member("p/problem.toml"), b""), (member("p/x", tarfile.SYMTYPE, linkname="/etc"), None)])
    assert error_of(upload(api, author, data)) == (
        "archive: member 'p/x': is a symbolic link; only files and folders are allowed")


def test_garbage_and_broken_multipart_are_422(api: TestClient, author: dict[str, str]) -> None:
    assert "is not a readable zip or tar archive" in error_of(upload(api, author, b"\x00junk" * 99, "x.tgz"))
    broken = api.post("/api/v1/problems", content=b"--nope\r\nbroken",
                      headers={**author, "Content-Type": "multipart/form-data; boundary=b"})
    assert broken.status_code == 422, broken.text


@pytest.mark.parametrize(("files", "expected"), [
    ({"a": "", "a/b": ""}, "file 'a/b': 'a' is a file, not a folder"),
    ({"a\x00b": ""}, "file 'a\\x00b': has a NUL character"),
    ({"n" * 300: ""}, "is 300 bytes long"),
    ({"d/" * 12 + "x": ""}, "is 13 levels deep"),
    ({"/etc/x": ""}, "is absolute"),
], ids=["file-and-folder", "nul", "long", "deep", "absolute"])
def test_odd_json_paths_are_422(api: TestClient, author: dict[str, str], files: dict[str, str],
                                expected: str) -> None:
    response = api.post("/api/v1/problems", headers=author,
                        json={"slug": "odd_json", "files": {**problem_files("odd_json"), **files}})
    assert expected in error_of(response)


@pytest.mark.parametrize("slug", ["bad slug", "x" * 65, "a\x00b", "abc\n"])
def test_a_bad_slug_is_422_before_any_database_work(api: TestClient, author: dict[str, str], slug: str) -> None:
    response = api.post("/api/v1/problems", headers=author, json={"slug": slug, "files": problem_files("x")})
    assert error_of(response).startswith("slug: ")


def test_shipped_slugs_cannot_be_claimed(api: TestClient, author: dict[str, str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    # The suite ships only the fixture problems; point the API at the real problems/ folder, whose
    # bleu_1gram has no row in this database: the folder name alone reserves it.
    monkeypatch.setenv("JUDGE_PROBLEMS_DIR", str(ROOT / "problems"))
    assert (ROOT / "problems" / "bleu_1gram").is_dir()
    assert api.get("/api/v1/problems/bleu_1gram", headers=author).status_code == 404
    for response in (
        api.post("/api/v1/problems", headers=author, json={"slug": "bleu_1gram",
                                                          "files": problem_files("bleu_1gram")}),
        upload(api, author, files_tar(["bleu_1gram/problem.toml"]), slug="bleu_1gram"),
    ):
        assert error_of(response, 409) == ("problem 'bleu_1gram' ships with the judge (problems/bleu_1gram) "
                                           "and cannot be uploaded; choose another slug")
    # secret_lookup is not under that folder, but it was synced from the fixtures: a row with no
    # owner is a shipped problem too.
    response = api.post("/api/v1/problems", headers=author,
                        json={"slug": "secret_lookup", "files": problem_files("secret_lookup")})
    assert "'secret_lookup' ships with the judge" in error_of(response, 409)
    assert api.put("/api/v1/problems/secret_lookup", headers=author,
                   json={"files": problem_files("secret_lookup")}).status_code == 403


def test_a_new_version_goes_through_the_same_checks(api: TestClient, author: dict[str, str]) -> None:
    created = api.post("/api/v1/problems", headers=author,
                       json={"slug": "upload_safety", "files": problem_files("upload_safety")})
    assert created.status_code == 201, created.text
    put = api.put("/api/v1/problems/upload_safety", headers=author,
                  files={"archive": ("bomb.tar.bz2", tar_bz2_bomb(8192))})
    assert error_of(put) == "archive: member 'bomb/zeros.bin': the files add up to more than 20 MiB"
    put = api.put("/api/v1/problems/upload_safety", headers=author,
                  json={"files": {**problem_files("upload_safety"), "a": "", "a/b": ""}})
    assert error_of(put) == "file 'a/b': 'a' is a file, not a folder"
