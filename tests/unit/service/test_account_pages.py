"""The account pages (issue 11): their paths serve the shell, the header has no token box any
more, and two pieces of their script run under Node: the ?next= guard of /sign-in (no open
redirect) and core/api.js's credentials (the cookie with a CSRF token on changes, or a kept Bearer
token, and one retry after the session's CSRF token changed)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api.routes.web import PAGES, WEB

BROWSER = {"Accept": "text/html,application/xhtml+xml"}
STATIC = WEB / "static"
ACCOUNT_MODULES = ["js/account/user.js", "js/account/forms.js", "js/account/page.js", "js/account/admin-users.js",
                   "js/core/api.js", "js/account/join.js", "js/account/nextpath.js", "js/account/routes.js",
                   "js/account/signin.js"]
needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="no Node.js to run the page's modules with")


@pytest.mark.parametrize("path", ["/sign-in", "/sign-in?next=%2Faccount", "/join/AbC-12_x", "/account",
                                  "/admin/users", "/admin/users?offset=50"])
def test_the_account_pages_are_the_shell(client: TestClient, path: str) -> None:
    response = client.get(path, headers=BROWSER)
    assert response.status_code == 200
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert response.text == client.get("/").text  # no data in the page: the script asks the API


def test_the_account_paths_are_listed_once() -> None:
    for path in ["/sign-in", "/join/{code}", "/account", "/admin/users"]:
        assert PAGES[path], path


def test_a_join_link_with_more_segments_is_no_page(client: TestClient) -> None:
    assert client.get("/join/abc/def", headers=BROWSER).status_code == 404
    assert client.get("/join", headers=BROWSER).status_code == 404


def test_the_header_signs_in_and_out_instead_of_holding_a_token_box() -> None:
    shell = (WEB / "shell.html").read_text(encoding="utf-8")
    assert 'id="token-input"' not in shell and "API token" not in shell
    for piece in ['id="who"', 'id="account-link"', 'id="sign-out"', 'id="sign-in-link"']:
        assert re.search(rf"<[^>]*{piece}[^>]*\bhidden\b", shell), piece  # shown once the user is known
    needs = re.findall(r'data-needs="([^"]+)"[^>]*>', shell)
    assert set(needs) == {"signed-in", "instructor", "admin"}
    assert all(" hidden" in tag for tag in re.findall(r"<a [^>]*data-needs[^>]*>", shell))


def test_every_import_of_the_account_modules_is_a_file_that_exports_it() -> None:
    for module in ACCOUNT_MODULES:
        text = (STATIC / module).read_text(encoding="utf-8")
        for names, target in re.findall(r'import \{([^}]*)\} from "(\.\.?/[^"]+)"', text):
            source = ((STATIC / module).parent / target).read_text(encoding="utf-8")
            for name in (n.strip() for n in names.split(",") if n.strip()):
                exported = rf"export (?:async )?(?:function\*? |const |class |let ){re.escape(name)}\b"
                assert re.search(exported, source), f"{module} imports {name} from {target}, which lacks it"


NEXT_CASES = {
    # asked for: where the sign-in page goes afterwards
    "/account": "/account",
    "/problems/bleu_1gram?assignment=3#code": "/problems/bleu_1gram?assignment=3#code",
    "/join/AbC-12_x": "/join/AbC-12_x",
    "/a/../admin/users": "/admin/users",
    "": "/",
    "https://evil.example/x": "/",
    "http:/evil.example": "/",
    "//evil.example/x": "/",
    "/\\evil.example": "/",
    "\\\\evil.example": "/",
    "/\t/evil.example": "/",
    "javascript:alert(1)": "/",
    "evil.example": "/",
    "/sign-in?next=%2F%2Fevil.example": "/",
    # one slash as written, two once the URL parser has normalised the path
    "/.//evil.example/x": "/",
    "/..//evil.example/x": "/",
    "/a/..//evil.example": "/",
    "/./%2F/evil.example": "/%2F/evil.example",  # an escaped slash stays part of a path
    "/%2F%2Fevil.example": "/%2F%2Fevil.example",
}


def _node(tmp_path: Path, script: str, *modules: str) -> str:
    """Run script beside the given modules (paths under static/), each copied in by its file name."""
    for module in modules:
        (tmp_path / Path(module).name).write_text((STATIC / module).read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "run.mjs").write_text(script, encoding="utf-8")
    ran = subprocess.run(["node", "run.mjs"], cwd=tmp_path, capture_output=True, text=True, timeout=30)
    assert ran.returncode == 0, ran.stderr
    return ran.stdout


@needs_node
def test_sign_in_goes_on_only_to_a_path_of_this_site(tmp_path: Path) -> None:
    (tmp_path / "package.json").write_text('{"type": "module"}')
    out = _node(tmp_path, 'import { safeNext, signInHref } from "./nextpath.js";\n'
                f"const cases = {json.dumps(list(NEXT_CASES))};\n"
                "console.log(JSON.stringify({next: cases.map(safeNext), "
                "href: [signInHref('/'), signInHref('/account?x=1'), signInHref('//evil.example')],"
                "odd: [safeNext(null), safeNext(undefined), safeNext(42)]}));\n", "js/account/nextpath.js")
    got = json.loads(out)
    assert dict(zip(NEXT_CASES, got["next"], strict=True)) == NEXT_CASES
    assert got["href"] == ["/sign-in", "/sign-in?next=%2Faccount%3Fx%3D1", "/sign-in"]
    assert got["odd"] == ["/", "/", "/"]


# A fetch that records each request and answers from a script: /auth/session hands out CSRF
# tokens "c1", "c2", ...; a change answers 403 csrf once when the test asks for it.
FAKE_BROWSER = """
const sent = [];
let sessions = 0;
let refuseOnce = false;
const store = new Map();
globalThis.localStorage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v),
  removeItem: (k) => store.delete(k) };
const answer = (status, body) => new Response(body === undefined ? null : JSON.stringify(body),
  { status, headers: { "Content-Type": "application/json" } });
globalThis.fetch = async (url, init) => {
  sent.push({ url, method: init.method, credentials: init.credentials, headers: init.headers });
  if (url === "/api/v1/auth/session") {
    sessions += 1;
    return answer(200, { user: { id: 1, name: "ann", role: "learner" }, csrf_token: "c" + sessions });
  }
  if (init.method !== "GET" && refuseOnce && !init.headers.Authorization) {
    refuseOnce = false;
    return answer(403, { error: { code: "csrf", message: "no CSRF token" } });
  }
  return answer(200, { ok: true });
};
const api = await import("./api.js");
const step = async (name, run) => { sent.length = 0; await run(); results[name] = sent.map(
  ({ url, method, credentials, headers }) => ({ url, method, credentials,
    csrf: headers["X-CSRF-Token"] ?? null, bearer: headers.Authorization ?? null })); };
const results = {};
await step("get", () => api.api("/problems"));
await step("post_first", () => api.api("/me/tokens", { method: "POST", json: { label: "x" } }));
await step("delete_after", () => api.api("/me/tokens/3", { method: "DELETE" }));
refuseOnce = true;
await step("retry", () => api.api("/me/password", { method: "PUT", json: { new_password: "0123456789" } }));
api.setToken("jt_kept");
await step("token", () => api.api("/me/tokens", { method: "POST", json: { label: "y" } }));
await step("sign_in", () => api.api("/auth/sign-in", { method: "POST", json: {}, token: "" }));
api.setToken("");
console.log(JSON.stringify(results));
"""


@needs_node
def test_api_sends_the_cookie_with_a_csrf_token_or_a_kept_bearer_token(tmp_path: Path) -> None:
    (tmp_path / "package.json").write_text('{"type": "module"}')
    got = json.loads(_node(tmp_path, FAKE_BROWSER, "js/core/api.js"))
    assert all(r["credentials"] == "same-origin" for requests in got.values() for r in requests)
    assert got["get"] == [{"url": "/api/v1/problems", "method": "GET", "credentials": "same-origin",
                           "csrf": None, "bearer": None}]
    # The first change reads the session's CSRF token, kept in memory for the next ones.
    assert [(r["url"], r["csrf"]) for r in got["post_first"]] == [("/api/v1/auth/session", None),
                                                                  ("/api/v1/me/tokens", "c1")]
    assert [(r["url"], r["csrf"]) for r in got["delete_after"]] == [("/api/v1/me/tokens/3", "c1")]
    # A refused CSRF token (a new session since) is read again and the change sent once more.
    assert [(r["url"], r["csrf"]) for r in got["retry"]] == [
        ("/api/v1/me/password", "c1"), ("/api/v1/auth/session", None), ("/api/v1/me/password", "c2")]
    # A kept token goes as Bearer, with no CSRF token and no session read.
    assert got["token"] == [{"url": "/api/v1/me/tokens", "method": "POST", "credentials": "same-origin",
                             "csrf": None, "bearer": "Bearer jt_kept"}]
    # Signing in asks for no session first, and token "" leaves the kept token out.
    assert [(r["url"], r["bearer"]) for r in got["sign_in"]] == [("/api/v1/auth/sign-in", None)]
