"""The web pages: static shells under a strict CSP whose script gets every datum from the API."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api.rendering import render_markdown
from api.routes.web import WEB
from tests.utils.service import bearer
from tests.utils.service_fixtures import Tokens

PAGES = ["/", "/problems/secret_lookup", "/problems/no_such_problem", "/submissions", "/submissions/1"]
STATIC = WEB / "static"


@pytest.mark.parametrize("path", PAGES)
def test_pages_are_the_shell_under_a_strict_policy(client: TestClient, path: str) -> None:
    response = client.get(path)  # no token: the shell holds no data, so it needs none
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    policy = response.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "script-src 'self'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert response.headers["x-content-type-options"] == "nosniff"
    assert '<script type="module" src="/static/app.js">' in response.text
    assert '<link rel="stylesheet" href="/static/app.css">' in response.text


def test_a_page_renders_no_data_on_the_server(client: TestClient, tokens: Tokens) -> None:
    # Even with a token the server sends only the shell; the title comes from the API, via the script.
    page = client.get("/problems/secret_lookup", headers=bearer(tokens.learner))
    title = client.get("/api/v1/problems/secret_lookup", headers=bearer(tokens.learner)).json()["title"]
    assert title not in page.text
    assert page.text == client.get("/").text


def test_a_submission_page_needs_a_numeric_id(client: TestClient) -> None:
    assert client.get("/submissions/latest").status_code == 404  # no such page


def test_the_api_is_not_shadowed_and_pages_are_not_in_the_schema(client: TestClient) -> None:
    response = client.get("/api/v1/problems")
    assert response.status_code == 401 and response.json()["error"]["code"] == "unauthorized"
    paths = client.get("/openapi.json").json()["paths"]
    assert "/" not in paths and "/problems/{slug}" not in paths and "/static/{path}" not in paths


CONTENT_TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}
# The entry point (app.js) and the modules it imports, a folder per area (js/<area>/*.js).
SCRIPTS = sorted([*STATIC.glob("*.js"), *STATIC.glob("js/*/*.js")])


def _name(path: Path) -> str:
    """A script's path under static/, as /static/ serves it."""
    return path.relative_to(STATIC).as_posix()


@pytest.mark.parametrize("name", sorted({*(p.name for p in STATIC.iterdir() if p.is_file()),
                                         *map(_name, SCRIPTS)}))
def test_static_assets_are_served(client: TestClient, name: str) -> None:
    # Module scripts run only when served with a JavaScript type.
    content_type = CONTENT_TYPES[Path(name).suffix]
    response = client.get(f"/static/{name}")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith(content_type)
    assert response.content == (STATIC / name).read_bytes()
    again = client.get(f"/static/{name}", headers={"If-None-Match": response.headers["etag"]})
    assert again.status_code == 304
    assert client.head(f"/static/{name}").status_code == 200


@pytest.mark.parametrize("path", ["/static/missing.js", "/static/%2e%2e/shell.html",
                                  "/static/..%2f..%2froutes%2fweb.py"])
def test_static_serves_only_its_folder(client: TestClient, path: str) -> None:
    assert client.get(path).status_code == 404


def _read(name: str) -> str:
    return (WEB / name).read_text(encoding="utf-8")


def test_the_scripts_write_markup_only_in_one_place() -> None:
    # core/dom.js serverHtml: the server's rendering of a problem's Markdown (statement, hints, editorial).
    writes = {_name(p): re.findall(r".*innerHTML.*", p.read_text()) for p in SCRIPTS}
    assert {name: lines for name, lines in writes.items() if lines} == {"js/core/dom.js": ["  node.innerHTML = html;"]}
    for path in SCRIPTS:
        script = path.read_text()
        for sink in ("outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function",
                     "createContextualFragment", "srcdoc", "DOMParser"):
            assert sink not in script, f"{_name(path)}: {sink}"


def test_the_modules_import_only_each_other() -> None:
    names = {_name(p) for p in SCRIPTS}
    imported = set()
    for path in SCRIPTS:
        text = path.read_text()
        assert "import(" not in text, _name(path)
        for target in re.findall(r'^import .* from "(.*)";$', text, re.MULTILINE):
            # A relative specifier (./ or ../) that names another of the scripts.
            resolved = (path.parent / target).resolve()
            assert target.startswith(("./", "../")) and resolved.is_relative_to(STATIC.resolve()), \
                f"{_name(path)}: {target}"
            assert _name(resolved) in names, f"{_name(path)}: {target}"
            imported.add(_name(resolved))
    # No module is left out: each is imported, or is a page's own script (the shell's, and the
    # LTI protocol's pages' in api/routes/lti_protocol.py).
    pages = (Path(__file__).resolve().parents[2] / "api" / "routes" / "lti_protocol.py").read_text()
    entries = {"app.js", *(f"js/lti/{m}" for m in re.findall(r'src="/static/js/lti/([a-z-]+\.js)"', pages))}
    assert entries >= {"app.js", "js/lti/login.js", "js/lti/return.js"}, entries
    assert imported == names - entries


@pytest.mark.skipif(shutil.which("node") is None, reason="no Node.js to parse the scripts with")
@pytest.mark.parametrize("path", SCRIPTS, ids=_name)
def test_the_scripts_parse_as_modules(path: Path) -> None:
    # The pages have no build step: a syntax error would reach the browser and blank every page.
    checked = subprocess.run(["node", "--input-type=module", "--check"], input=path.read_text(),
                             capture_output=True, text=True, timeout=30)
    assert checked.returncode == 0, checked.stderr


def test_the_statement_html_the_script_trusts_is_escaped() -> None:
    html = render_markdown('Hi <script>alert(1)</script> <img src=x onerror="alert(2)">\n\n'
                           "[click](javascript:alert(3))\n")
    assert "<script" not in html and "<img" not in html and "&lt;script&gt;" in html
    assert 'href="javascript:' not in html


@pytest.mark.parametrize("name", ["shell.html", "static/app.css", *(f"static/{_name(p)}" for p in SCRIPTS)])
def test_nothing_is_loaded_from_another_origin(name: str) -> None:
    # The pages must work offline: no CDN, no web font, no remote image.
    text = _read(name)
    hosts = re.findall(r"(?:https?:)?//([a-z0-9.-]+\.[a-z]{2,})", text, re.IGNORECASE)
    # .invalid never resolves (RFC 2606): account/nextpath.js parses ?next= against such a base.
    assert not [host for host in hosts if not host.lower().endswith(".invalid")], hosts
    assert "@import" not in text


def test_the_shell_has_no_inline_script_or_style() -> None:
    shell = _read("shell.html")
    scripts = re.findall(r"<script\b[^>]*>", shell)
    assert scripts and all("src=" in tag for tag in scripts)
    assert not re.search(r"\son[a-z]+\s*=", shell) and " style=" not in shell and "<style" not in shell


def test_the_assets_ship_with_the_package() -> None:
    import tomllib

    config = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["api"]
    shipped = {p.relative_to(WEB.parent).as_posix() for pattern in patterns for p in WEB.parent.glob(pattern)}
    assert {"web/shell.html", "web/static/app.js", "web/static/app.css"} <= shipped
    assert {f"web/static/{_name(p)}" for p in SCRIPTS} <= shipped  # every area's folder too
