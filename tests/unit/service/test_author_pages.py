"""The authoring and insight pages (issue 11): their paths serve the strict shell (whose image
policy admits the charts' object URLs and nothing more), their route table covers exactly those
paths, every name they import exists, and the module that holds no DOM (author/format.js: which
action a version offers, a new file's path, acceptance in words, the lines a match covers) gives
the right answers when Node runs it."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.routes.web import PAGES, WEB

BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}
STATIC = WEB / "static"
AUTHOR = STATIC / "js" / "author"
AUTHOR_MODULES = ["routes.js", "list.js", "problem.js", "files.js", "versions.js", "rejudge.js", "preview.js",
                  "insight.js", "format.js", "http.js", "parts.js", "upload.js", "sharing.js", "side-by-side.js"]
needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="no Node.js to run the page modules with")


@pytest.mark.parametrize("path", ["/author", "/author/bleu_1gram", "/author/anything_else/insight",
                                  "/author/bleu_1gram/preview"])
def test_the_author_pages_are_the_shell(client: TestClient, path: str) -> None:
    response = client.get(path + ("?version=abc" if path.endswith("preview") else ""), headers=BROWSER)
    assert response.status_code == 200
    policy = dict(part.strip().split(" ", 1) for part in response.headers["content-security-policy"].split(";"))
    assert policy["script-src"] == "'self'" and policy["style-src"] == "'self'"
    assert policy["img-src"] == "'self' blob:"  # the charts, fetched with the token, shown from blob: URLs
    assert "unsafe-inline" not in response.headers["content-security-policy"]
    assert response.text == client.get("/").text  # the script asks the API for everything


@pytest.mark.parametrize("path", ["/author/a/b", "/author/a/insight/more", "/author/a/files"])
def test_other_author_paths_are_not_pages(client: TestClient, path: str) -> None:
    assert client.get(path, headers=BROWSER).status_code == 404


def _route_patterns() -> list[re.Pattern[str]]:
    text = (AUTHOR / "routes.js").read_text(encoding="utf-8")
    # Each route's pattern is a regex literal opening its row: [/^\/author...$/, ...
    return [re.compile(found) for found in re.findall(r"\[/(\^.*?\$)/,", text)]


def test_the_route_table_covers_exactly_the_author_pages() -> None:
    patterns = _route_patterns()
    paths = [p.replace("{slug}", "bleu_1gram") for p in PAGES if p.startswith("/author")]
    assert len(paths) == len(patterns) == 4
    for path in paths:
        assert sum(bool(p.fullmatch(path)) for p in patterns) == 1, path
    for other in ["/author/", "/authors", "/author/a/b", "/problems/bleu_1gram"]:
        assert not any(p.fullmatch(other) for p in patterns), other
    app = (STATIC / "app.js").read_text(encoding="utf-8")
    assert 'import { AUTHOR_ROUTES } from "./js/author/routes.js";' in app and "...AUTHOR_ROUTES" in app


def _exports(module: Path) -> set[str]:
    text = module.read_text(encoding="utf-8")
    names = set(re.findall(r"^export (?:async )?(?:function\*?|const|let|class) (\w+)", text, re.M))
    return names


@pytest.mark.parametrize("name", AUTHOR_MODULES)
def test_every_name_an_author_module_imports_is_exported(name: str) -> None:
    text = (AUTHOR / name).read_text(encoding="utf-8")
    imports = re.findall(r'^import \{([^}]*)\} from "(\.\.?/[\w./-]+)";', text, re.M)
    assert imports or name == "format.js", name  # that one holds no DOM and imports nothing
    for names, source in imports:
        module = AUTHOR / source
        assert module.is_file(), f"{name} imports the missing {source}"
        exported = _exports(module)
        for wanted in (n.strip() for n in names.split(",") if n.strip()):
            assert wanted in exported, f"{name} imports {wanted} from {source}, which does not export it"
    assert "innerHTML" not in text  # built with createElement/textContent; core/dom.js serverHtml is the one exception


def _run_format(tmp_path: Path, script: str) -> Any:
    (tmp_path / "format.mjs").write_text((AUTHOR / "format.js").read_text(encoding="utf-8"))
    (tmp_path / "run.mjs").write_text('import * as f from "./format.mjs";\n' + script)
    ran = subprocess.run(["node", "run.mjs"], cwd=tmp_path, capture_output=True, text=True, timeout=30)
    assert ran.returncode == 0, ran.stderr
    return json.loads(ran.stdout)


@needs_node
def test_a_version_offers_publish_when_newer_and_roll_back_when_older(tmp_path: Path) -> None:
    cases = [
        # oldest first: (status, published)
        [("valid", False), ("invalid", False), ("draft", False)],
        [("valid", True), ("valid", False), ("invalid", False)],
        [("valid", False), ("valid", True), ("valid", False), ("draft", False)],
        [],
    ]
    given = [[{"status": s, "published": p} for s, p in case] for case in cases]
    got = _run_format(tmp_path, f"console.log(JSON.stringify({json.dumps(given)}.map(f.versionActions)));")
    assert got == [
        ["publish", None, None],
        [None, "publish", None],
        ["roll back", None, "publish", None],
        [],
    ]


@needs_node
def test_a_new_file_path_is_relative_and_new(tmp_path: Path) -> None:
    paths = ["wrong/off.py", "", "  ", "/etc/passwd", "a/../b.py", "tests//x.json", "a\\b.py", "./x.py",
             "statement.md", " tests/extra.json "]
    got = _run_format(tmp_path, f"console.log(JSON.stringify({json.dumps(paths)}.map("
                                "(p) => f.newPathProblem(p, ['statement.md', 'reference.py']))));")
    ok = [p for p, problem in zip(paths, got, strict=True) if problem == ""]
    assert ok == ["wrong/off.py", " tests/extra.json "]
    assert "already" in got[paths.index("statement.md")]
    assert "relative" in got[paths.index("/etc/passwd")]


@needs_node
def test_acceptance_in_words_names_the_wilson_interval(tmp_path: Path) -> None:
    cases = [
        {"submissions": 0, "accepted": 0, "rate": None, "wilson_95": None},
        {"submissions": 10, "accepted": 7, "rate": 0.7, "wilson_95": [0.3968, 0.8922]},
        {"submissions": 1, "accepted": 1, "rate": 1.0, "wilson_95": [0.2065, 1.0]},
    ]
    got = _run_format(tmp_path, f"console.log(JSON.stringify({json.dumps(cases)}.map(f.acceptanceWords)));")
    assert got[0] == "No judged submissions yet."
    assert got[1].startswith("7 of 10 judged submissions accepted: 70.0%.")
    assert "Wilson interval" in got[1] and "between 39.7% and 89.2%" in got[1]
    assert got[2].startswith("1 of 1 judged submission accepted: 100.0%.") and "100.0%;" in got[2]


@needs_node
def test_matched_lines_mark_each_range_with_its_match(tmp_path: Path) -> None:
    matches = [{"a_lines": [2, 3], "b_lines": [5, 6]}, {"a_lines": [3, 5], "b_lines": [1, 1]},
               {"a_lines": [7, 40], "b_lines": [8, 8]}]
    got = _run_format(tmp_path, f"const m = {json.dumps(matches)};\n"
                                "console.log(JSON.stringify([f.matchedLines(m, 'a_lines', 8), "
                                "f.matchedLines(m, 'b_lines', 6), f.matchedLines([], 'a_lines', 2)]));")
    # An overlap keeps the first match's number; a range past the end stops there.
    assert got[0] == [-1, 0, 0, 1, 1, -1, 2, 2]
    assert got[1] == [1, -1, -1, -1, 0, 0]
    assert got[2] == [-1, -1]


@needs_node
def test_an_upload_refusal_is_said_in_words_with_its_file_and_line(tmp_path: Path) -> None:
    refusals = [
        {"status": 422, "code": "invalid_input",
         "message": "archive: before the first member: changed.zip is not a readable zip or tar archive (truncated header)"},
        {"status": 422, "code": "invalid_input", "message": "edges/tests/public.json: invalid JSON at line 4 column 1"},
        {"status": 422, "code": "invalid_input", "message": "hints.md: line 3: text before the first '## ' heading"},
        {"status": 422, "code": "invalid_input",
         "message": "archive: member 'big.txt': the files add up to more than 20 MiB"},
        {"status": 422, "code": "invalid_input", "message": "problem.toml: missing key function.name"},
        {"status": 413, "code": "too_large", "message": "the request body is over 26214400 bytes"},
        {"status": 403, "code": "forbidden", "message": "you do not own problem 'edges'"},
        {"status": 422, "code": "invalid_input", "message": "slug: give a slug"},
    ]
    got = _run_format(tmp_path, f"console.log(JSON.stringify({json.dumps(refusals)}.map("
                                "(e) => f.uploadRefusal(e, 'changed.zip', 'edges'))));")
    assert got == [
        "changed.zip is not a readable .zip archive (truncated header). Make a .zip of the problem folder "
        "and choose it again.",
        "In tests/public.json, line 4 (column 1): invalid JSON.",
        "In hints.md, line 3: text before the first '## ' heading.",
        "In the archive, at big.txt: the files add up to more than 20 MiB.",
        "In problem.toml: missing key function.name.",
        "changed.zip is too large: the judge takes an archive of at most 25 MiB. Leave out what the problem "
        "does not need.",
        "Only the problem's owner or an administrator can upload a new version of it.",
        "The archive was not accepted: give a slug.",
    ]


@needs_node
def test_a_rejudges_verdicts_read_before_and_after(tmp_path: Path) -> None:
    verdicts = [{"verdict": "accepted", "before": 1, "after": 2},
                {"verdict": "wrong_answer", "before": 1, "after": 0},
                {"verdict": None, "before": 0, "after": 0}]
    got = _run_format(tmp_path, f"console.log(JSON.stringify([f.verdictCountWords({json.dumps(verdicts)}), "
                                "f.verdictCountWords([])]));")
    assert got == ["accepted 1 → 2 · wrong answer 1 → 0 · no verdict 0 → 0", ""]
